import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OutboundMessage } from "../src/providers/provider.ts";
import { createSesProvider, type SesConfig } from "../src/providers/ses/ses-provider.ts";
import { answerFromHttpFixture, FakeSes, sesError } from "./support/fake-ses.ts";
import { providerFixture } from "./support/sns-signing.ts";

const fake = new FakeSes();
let config: SesConfig;

beforeAll(async () => {
  const endpoint = await fake.start();
  config = {
    name: "ses",
    region: "us-east-1",
    accessKeyId: "AKIDEXAMPLE",
    secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
    from: "Acme <hello@acme.example>",
    configurationSetName: "herald-events",
    endpoint,
  };
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  fake.answer = (_r, index) => ({ status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ MessageId: `fake-ses-${index}` }) });
});

function message(n: number, extra: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    notificationId: String(1000 + n),
    channel: "email",
    lane: "bulk",
    to: `user${n}@example.com`,
    subject: `Subject ${n}`,
    body: `Text body ${n}`,
    data: {},
    ...extra,
  };
}

describe("SES provider: the request the real SDK sends", () => {
  it("posts subject, HTML and text, the unsubscribe headers, the configuration set and the notification_id tag", async () => {
    const provider = createSesProvider(config);
    const results = await provider.send([
      message(1, {
        html: "<p>Hello <b>there</b></p>",
        headers: {
          "List-Unsubscribe": "<https://herald.example.com/u/abc>",
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      }),
    ]);

    expect(results).toEqual([{ outcome: { kind: "sent", providerMessageId: "fake-ses-0" }, latencyMs: expect.any(Number) }]);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/v2/email/outbound-emails");
    expect(request!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/ses\/aws4_request/);
    expect(request!.body).toEqual({
      FromEmailAddress: "Acme <hello@acme.example>",
      Destination: { ToAddresses: ["user1@example.com"] },
      Content: {
        Simple: {
          Subject: { Data: "Subject 1", Charset: "UTF-8" },
          Body: { Text: { Data: "Text body 1", Charset: "UTF-8" }, Html: { Data: "<p>Hello <b>there</b></p>", Charset: "UTF-8" } },
          Headers: [
            { Name: "List-Unsubscribe", Value: "<https://herald.example.com/u/abc>" },
            { Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click" },
          ],
        },
      },
      ConfigurationSetName: "herald-events",
      EmailTags: [{ Name: "notification_id", Value: "1001" }],
    });
  });

  it("sends text only and no headers when the message has neither HTML nor headers", async () => {
    const { configurationSetName: _, ...withoutSet } = config;
    await createSesProvider(withoutSet).send([message(2)]);
    const body = fake.requests[0]!.body;
    expect(body.Content.Simple).toEqual({ Subject: { Data: "Subject 2", Charset: "UTF-8" }, Body: { Text: { Data: "Text body 2", Charset: "UTF-8" } } });
    expect(body).not.toHaveProperty("ConfigurationSetName");
  });

  it("answers one result per message, in order, with at most 8 calls in flight", async () => {
    fake.answer = (request) => ({
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ MessageId: `id-${request.body.EmailTags[0].Value}` }),
      // Later messages answer sooner, so completion order differs from input order.
      delayMs: 60 - (Number(request.body.EmailTags[0].Value) % 20) * 3,
    });
    const messages = Array.from({ length: 20 }, (_, i) => message(i));
    const heard: number[] = [];
    const heardResults: unknown[] = [];
    const results = await createSesProvider(config).send(messages, {
      onResult: (index, result) => {
        heard.push(index);
        heardResults[index] = result;
      },
    });
    expect(heardResults).toEqual(results);
    expect(results.map((r) => r.outcome)).toEqual(messages.map((m) => ({ kind: "sent", providerMessageId: `id-${m.notificationId}` })));
    // Each result was also reported as it landed, once, in completion order rather than input order.
    expect([...heard].sort((a, b) => a - b)).toEqual(messages.map((_m, i) => i));
    expect(heard).not.toEqual(messages.map((_m, i) => i));
    expect(fake.requests).toHaveLength(20);
    expect(fake.maxInFlight).toBeLessThanOrEqual(8);
    expect(fake.maxInFlight).toBeGreaterThan(1);
    for (const r of results) expect(r.latencyMs).toBeGreaterThanOrEqual(0);
  });
});

describe("SES provider: outcomes, one HTTP request per message (SDK retries off)", () => {
  it("429 TooManyRequestsException from the fixture is a retry, not retried by the SDK", async () => {
    fake.answer = () => answerFromHttpFixture(providerFixture("ses-v2-error-too-many-requests.http"));
    const results = await createSesProvider(config).send([message(1), message(2)]);
    expect(results.map((r) => r.outcome)).toEqual([
      { kind: "retry", reason: "throttled", providerCode: "TooManyRequestsException" },
      { kind: "retry", reason: "throttled", providerCode: "TooManyRequestsException" },
    ]);
    expect(fake.requests).toHaveLength(2);
  });

  it("honours Retry-After on a throttle", async () => {
    fake.answer = () => sesError(429, "TooManyRequestsException", "Maximum sending rate exceeded.", { "retry-after": "12" });
    const [result] = await createSesProvider(config).send([message(1)]);
    expect(result!.outcome).toEqual({ kind: "retry", reason: "throttled", afterMs: 12_000, providerCode: "TooManyRequestsException" });
    expect(fake.requests).toHaveLength(1);
  });

  it("LimitExceededException (which the SDK would retry blindly) is one request and a retry", async () => {
    fake.answer = () => sesError(400, "LimitExceededException");
    const [result] = await createSesProvider(config).send([message(1)]);
    expect(result!.outcome).toMatchObject({ kind: "retry", providerCode: "LimitExceededException" });
    expect(fake.requests).toHaveLength(1);
  });

  it("a 500 and a 503 are retries after exactly one request each", async () => {
    fake.answer = (_r, index) => (index === 0 ? sesError(500, "InternalServiceErrorException") : { status: 503, body: "Service Unavailable" });
    const results = await createSesProvider(config, { concurrency: 1 }).send([message(1), message(2)]);
    expect(results[0]!.outcome).toEqual({ kind: "retry", reason: "http_500", providerCode: "InternalServiceErrorException" });
    expect(results[1]!.outcome).toMatchObject({ kind: "retry", reason: "http_503" });
    expect(fake.requests).toHaveLength(2);
  });

  it("MessageRejected is dead with provider_rejected:MessageRejected", async () => {
    fake.answer = () => sesError(400, "MessageRejected", "Email address is not verified.");
    const [result] = await createSesProvider(config).send([message(1)]);
    expect(result!.outcome).toEqual({ kind: "dead", reason: "provider_rejected:MessageRejected", providerCode: "MessageRejected" });
  });

  it("NotFoundException (a missing configuration set) is dead", async () => {
    fake.answer = () => sesError(404, "NotFoundException", "Configuration set <herald-events> does not exist.");
    const [result] = await createSesProvider(config).send([message(1)]);
    expect(result!.outcome).toEqual({ kind: "dead", reason: "provider_rejected:NotFoundException", providerCode: "NotFoundException" });
  });

  it("SendingPausedException and bad credentials are outages", async () => {
    fake.answer = (_r, index) =>
      [
        sesError(400, "SendingPausedException"),
        // AWS's coral-style type, which the SDK trims at the colon.
        sesError(403, "UnrecognizedClientException:http://internal.amazon.com/coral/com.amazon.coral.service/", "The security token included in the request is invalid."),
        sesError(403, "SignatureDoesNotMatch"),
      ][index]!;
    const results = await createSesProvider(config, { concurrency: 1 }).send([message(1), message(2), message(3)]);
    expect(results.map((r) => r.outcome)).toEqual([
      { kind: "outage", reason: "credentials_outage", providerCode: "SendingPausedException" },
      { kind: "outage", reason: "credentials_outage", providerCode: "UnrecognizedClientException" },
      { kind: "outage", reason: "credentials_outage", providerCode: "SignatureDoesNotMatch" },
    ]);
    expect(fake.requests).toHaveLength(3);
  });

  it("a dropped connection is a network retry after one request", async () => {
    fake.answer = () => ({ drop: true });
    const [result] = await createSesProvider(config).send([message(1)]);
    expect(result!.outcome).toMatchObject({ kind: "retry", reason: "network_error" });
    expect(fake.requests).toHaveLength(1);
  });

  it("no answer within the request timeout is a timeout retry after one request", async () => {
    fake.answer = () => ({ hang: true });
    const [result] = await createSesProvider(config, { requestTimeoutMs: 300 }).send([message(1)]);
    expect(result!.outcome).toMatchObject({ kind: "retry", reason: "timeout" });
    expect(result!.latencyMs).toBeGreaterThanOrEqual(250);
    expect(fake.requests).toHaveLength(1);
  });

  it("an unreachable endpoint is a network retry, never a throw", async () => {
    const provider = createSesProvider({ ...config, endpoint: "http://127.0.0.1:1" });
    const [result] = await provider.send([message(1)]);
    expect(result!.outcome).toMatchObject({ kind: "retry", reason: "network_error", providerCode: "ECONNREFUSED" });
  });

  it("a mixed batch keeps each message's own outcome", async () => {
    fake.answer = (request, index) =>
      request.body.Destination.ToAddresses[0] === "user2@example.com"
        ? sesError(400, "MessageRejected")
        : { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ MessageId: `ok-${index}` }) };
    const results = await createSesProvider(config, { concurrency: 1 }).send([message(1), message(2), message(3)]);
    expect(results.map((r) => r.outcome.kind)).toEqual(["sent", "dead", "sent"]);
  });
});
