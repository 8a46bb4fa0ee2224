import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OutboundMessage } from "../src/providers/provider.ts";
import { createTwilioProvider, twilioWebhookUrl, type TwilioConfig } from "../src/providers/twilio/twilio-provider.ts";
import { twilioStatusFetcher } from "../src/tasks/reconcile-twilio.ts";
import { fixture, jsonFixtureAnswer, RecordingServer } from "./support/recording-server.ts";

const ACCOUNT_SID = "AC0123456789abcdef0123456789abcdef";
const AUTH_TOKEN = "test_auth_token_0123456789abcdef";
const SERVICE_SID = "MG0123456789abcdef0123456789abcdef";
const MESSAGES_PATH = `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`;

const fake = new RecordingServer();
let baseUrl: string;

/** What Twilio answers a create with (201), trimmed to the fields a real answer carries. */
function created(sid: string, to: string): string {
  return JSON.stringify({
    sid,
    account_sid: ACCOUNT_SID,
    to,
    from: null,
    messaging_service_sid: SERVICE_SID,
    body: "…",
    status: "accepted",
    num_segments: "0",
    num_media: "0",
    direction: "outbound-api",
    api_version: "2010-04-01",
    price: null,
    price_unit: null,
    error_code: null,
    error_message: null,
    uri: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/${sid}.json`,
    date_created: "Tue, 01 Dec 2026 12:00:00 +0000",
    date_updated: "Tue, 01 Dec 2026 12:00:00 +0000",
    date_sent: null,
    subresource_uris: {},
  });
}

function sid(n: number): string {
  return `SM${String(n).padStart(32, "0")}`;
}

function config(extra: Partial<TwilioConfig> = {}): TwilioConfig {
  return {
    name: "twilio-sms",
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    messagingServiceSid: SERVICE_SID,
    statusCallbackUrl: twilioWebhookUrl("https://herald.example.com"),
    baseUrl,
    ...extra,
  };
}

function message(n: number, extra: Partial<OutboundMessage> = {}): OutboundMessage {
  return { notificationId: String(n), channel: "sms", lane: "critical", to: `+1555867${String(n).padStart(4, "0")}`, body: `Your code is ${n}`, data: {}, ...extra };
}

beforeAll(async () => {
  baseUrl = await fake.start();
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  fake.answer = (request, index) => ({ status: 201, body: created(sid(index), new URLSearchParams(request.body).get("To") ?? "") });
});

describe("Twilio provider: the request the real SDK sends", () => {
  it("posts To, Body, MessagingServiceSid and StatusCallback as a form, with basic auth, and maps sid → providerMessageId", async () => {
    const results = await createTwilioProvider(config()).send([message(1)]);

    expect(results).toEqual([{ outcome: { kind: "sent", providerMessageId: sid(0) }, latencyMs: expect.any(Number) }]);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe(MESSAGES_PATH);
    expect(request!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString("base64")}`);
    expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({
      To: "+15558670001",
      Body: "Your code is 1",
      MessagingServiceSid: SERVICE_SID,
      StatusCallback: "https://herald.example.com/webhooks/twilio",
    });
  });

  it("sends From when no Messaging Service is configured", async () => {
    await createTwilioProvider(config({ messagingServiceSid: undefined, from: "+15017250604" })).send([message(2)]);
    expect(Object.fromEntries(new URLSearchParams(fake.requests[0]!.body))).toEqual({
      To: "+15558670002",
      Body: "Your code is 2",
      From: "+15017250604",
      StatusCallback: "https://herald.example.com/webhooks/twilio",
    });
  });

  it("refuses a configuration with neither a from number nor a Messaging Service", () => {
    expect(() => createTwilioProvider(config({ messagingServiceSid: undefined }))).toThrow(/from number or a Messaging Service SID/);
  });

  it("answers one result per message, in order, with at most `concurrency` creates in flight", async () => {
    fake.answer = async (request, index) => {
      await new Promise((r) => setTimeout(r, 20));
      return { status: 201, body: created(sid(index), new URLSearchParams(request.body).get("To") ?? "") };
    };
    const messages = Array.from({ length: 12 }, (_, i) => message(i + 1));
    const results = await createTwilioProvider(config(), { concurrency: 3 }).send(messages);

    expect(fake.requests).toHaveLength(12);
    expect(fake.maxInFlight).toBe(3);
    // Each result belongs to its own message: the fake's sid for the request that carried that To.
    const sidOfTo = new Map(fake.requests.map((r, i) => [new URLSearchParams(r.body).get("To"), sid(i)]));
    expect(results.map((r) => r.outcome)).toEqual(messages.map((m) => ({ kind: "sent", providerMessageId: sidOfTo.get(m.to) })));
  });
});

describe("Twilio provider: errors, with the fixtures' bodies, one HTTP request per attempt", () => {
  it("21211 → dead provider_rejected:21211", async () => {
    fake.answer = () => jsonFixtureAnswer(400, "twilio-rest-error-21211.json");
    const [result] = await createTwilioProvider(config()).send([message(3)]);
    expect(result).toEqual({ outcome: { kind: "dead", reason: "provider_rejected:21211", providerCode: "21211" }, latencyMs: expect.any(Number) });
    expect(fake.requests).toHaveLength(1);
  });

  it("21610 → dead, and the number suppressed for stop", async () => {
    fake.answer = () => jsonFixtureAnswer(400, "twilio-rest-error-21610.json");
    const [result] = await createTwilioProvider(config()).send([message(4)]);
    expect(result).toEqual({
      outcome: { kind: "dead", reason: "provider_rejected:21610", providerCode: "21610" },
      latencyMs: expect.any(Number),
      suppress: { address: "+15558670004", reason: "stop" },
    });
  });

  it("20429 → retry after Retry-After, and the SDK does not retry it itself", async () => {
    fake.answer = () => jsonFixtureAnswer(429, "twilio-rest-error-20429.json", { "retry-after": "9" });
    const [result] = await createTwilioProvider(config()).send([message(5)]);
    expect(result!.outcome).toEqual({ kind: "retry", reason: "throttled", providerCode: "20429", afterMs: 9000 });
    expect(fake.requests).toHaveLength(1);
  });

  it("keeps each call's Retry-After apart when a batch runs concurrently", async () => {
    fake.answer = async (request) => {
      const to = new URLSearchParams(request.body).get("To")!;
      const n = Number(to.slice(-4));
      await new Promise((r) => setTimeout(r, (6 - n) * 10));
      return jsonFixtureAnswer(429, "twilio-rest-error-20429.json", { "retry-after": String(n) });
    };
    const results = await createTwilioProvider(config(), { concurrency: 5 }).send([1, 2, 3, 4, 5].map((n) => message(n)));
    expect(results.map((r) => (r.outcome.kind === "retry" ? r.outcome.afterMs : null))).toEqual([1000, 2000, 3000, 4000, 5000]);
  });

  it("20003 (401) → outage", async () => {
    fake.answer = () => ({
      status: 401,
      body: JSON.stringify({ code: 20003, message: "Authenticate", more_info: "https://www.twilio.com/docs/errors/20003", status: 401 }),
    });
    const [result] = await createTwilioProvider(config()).send([message(6)]);
    expect(result!.outcome).toEqual({ kind: "outage", reason: "credentials_outage", providerCode: "20003" });
  });

  it("503 → retry honouring Retry-After; 500 with an HTML body → retry", async () => {
    fake.answer = () => ({ status: 503, headers: { "retry-after": "4" }, body: "{}" });
    expect((await createTwilioProvider(config()).send([message(7)]))[0]!.outcome).toEqual({
      kind: "retry",
      reason: "http_503",
      providerCode: "503",
      afterMs: 4000,
    });
    fake.answer = () => ({ status: 500, headers: { "content-type": "text/html" }, body: "<html>oops</html>" });
    expect((await createTwilioProvider(config()).send([message(8)]))[0]!.outcome).toEqual({ kind: "retry", reason: "http_500", providerCode: "500" });
    expect(fake.requests).toHaveLength(2);
  });

  it("a dropped connection → retry network_error, one request", async () => {
    fake.answer = () => ({ destroy: true });
    const [result] = await createTwilioProvider(config()).send([message(9)]);
    expect(result!.outcome).toMatchObject({ kind: "retry", reason: "network_error", providerCode: "ECONNRESET" });
    expect(fake.requests).toHaveLength(1);
  });

  it("no answer within the timeout → retry timeout, one request", async () => {
    fake.answer = () => ({ hang: true });
    const [result] = await createTwilioProvider(config(), { timeoutMs: 300 }).send([message(10)]);
    expect(result!.outcome).toMatchObject({ kind: "retry", reason: "timeout" });
    expect(fake.requests).toHaveLength(1);
  });

  it("the fixtures' error bodies are Twilio's shape", () => {
    for (const name of ["twilio-rest-error-20429.json", "twilio-rest-error-21211.json", "twilio-rest-error-21610.json"]) {
      expect(Object.keys(JSON.parse(fixture(name))).sort()).toEqual(["code", "message", "more_info", "status"]);
    }
  });
});

describe("twilioStatusFetcher: the reconcile task's lookup", () => {
  it("GETs the message and reads status and error code", async () => {
    fake.answer = () => ({
      status: 200,
      body: JSON.stringify({ ...JSON.parse(created(sid(77), "+15558675310")), status: "undelivered", error_code: 30003 }),
    });
    const fetchStatus = twilioStatusFetcher({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, baseUrl });
    expect(await fetchStatus(sid(77))).toEqual({ status: "undelivered", errorCode: "30003" });
    expect(fake.requests[0]!.method).toBe("GET");
    expect(fake.requests[0]!.path).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/${sid(77)}.json`);
  });
});
