import { createPublicKey, verify } from "node:crypto";
import { getApps } from "firebase-admin/app";
import nock from "nock";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFcmProvider, type FcmConfig } from "../src/providers/fcm/fcm-provider.ts";
import type { OutboundMessage } from "../src/providers/provider.ts";
import { interceptOAuthToken, testServiceAccount, testServiceAccountWithKey } from "./support/fcm-credentials.ts";
import { jsonFixtureAnswer, RecordingServer, type FakeAnswer, type RecordedRequest } from "./support/recording-server.ts";

const fake = new RecordingServer();
let endpoint: string;
let oauth: ReturnType<typeof interceptOAuthToken>;
const { serviceAccount, publicKey } = testServiceAccountWithKey("herald-test");
const SEND_PATH = "/v1/projects/herald-test/messages:send";

/** What each test token makes the fake FCM answer, as the real service does for such a token. */
const TOKEN_ANSWERS: Record<string, (index: number) => FakeAnswer> = {
  unregistered: () => jsonFixtureAnswer(404, "fcm-error-unregistered.json"),
  "bad-token": () => jsonFixtureAnswer(400, "fcm-error-invalid-argument-token.json"),
  "bad-payload": () => jsonFixtureAnswer(400, "fcm-error-invalid-argument-field.json"),
  "other-project": () => jsonFixtureAnswer(403, "fcm-error-sender-id-mismatch.json"),
  "apns-broken": () => jsonFixtureAnswer(401, "fcm-error-third-party-auth.json"),
  quota: () => jsonFixtureAnswer(429, "fcm-error-quota-exceeded.json"),
  unavailable: () => jsonFixtureAnswer(503, "fcm-error-unavailable.json", { "retry-after": "5" }),
  internal: () => jsonFixtureAnswer(500, "fcm-error-internal.json"),
  reset: () => ({ destroy: true }),
  hang: () => ({ hang: true }),
};

function tokenOf(request: RecordedRequest): string {
  return (JSON.parse(request.body) as { message: { token: string } }).message.token;
}

beforeAll(async () => {
  endpoint = await fake.start();
  nock.disableNetConnect();
  nock.enableNetConnect("127.0.0.1");
});
afterAll(async () => {
  nock.cleanAll();
  nock.enableNetConnect();
  await fake.stop();
});
beforeEach(() => {
  nock.cleanAll();
  oauth = interceptOAuthToken();
  fake.reset();
  fake.answer = (request, index) => TOKEN_ANSWERS[tokenOf(request)]?.(index) ?? { status: 200, body: JSON.stringify({ name: `projects/herald-test/messages/${index}` }) };
});

function config(extra: Partial<FcmConfig> = {}): FcmConfig {
  return { name: "fcm-push", serviceAccount, endpoint, ...extra };
}

function message(n: number, tokens: string[], extra: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    notificationId: String(n),
    channel: "push",
    lane: "bulk",
    to: `user-${n}`,
    tokens,
    title: `Title ${n}`,
    body: `Body ${n}`,
    data: { notification_id: String(n), order: "A-17" },
    ...extra,
  };
}

describe("FCM provider: the request sent, through firebase-admin's real credential", () => {
  it("POSTs one HTTP/1.1 request per token to the v1 endpoint with the OAuth token from the service account", async () => {
    const results = await createFcmProvider(config()).send([message(1, ["tok-a", "tok-b"])]);

    expect(results).toEqual([{ outcome: { kind: "sent", providerMessageId: "projects/herald-test/messages/0" }, latencyMs: expect.any(Number) }]);
    expect(fake.requests.map(tokenOf).sort()).toEqual(["tok-a", "tok-b"]);
    for (const request of fake.requests) {
      expect(request.method).toBe("POST");
      expect(request.path).toBe(SEND_PATH);
      expect(request.httpVersion).toBe("1.1");
      expect(request.headers.authorization).toBe("Bearer ya29.test-token");
      expect(request.headers["content-type"]).toBe("application/json; charset=utf-8");
    }
    // firebase-admin signed a JWT assertion with the generated key and exchanged it for the token.
    expect(oauth.seen).toHaveLength(1);
    const { grant_type: grantType, assertion } = oauth.seen[0]!;
    expect(grantType).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    const [header, claims, signature] = assertion!.split(".");
    expect(verify("RSA-SHA256", Buffer.from(`${header}.${claims}`), createPublicKey(publicKey), Buffer.from(signature!, "base64url"))).toBe(true);
    expect(JSON.parse(Buffer.from(claims!, "base64url").toString())).toMatchObject({
      iss: serviceAccount.client_email,
      aud: "https://oauth2.googleapis.com/token",
      scope: expect.stringContaining("https://www.googleapis.com/auth/firebase.messaging"),
    });
  });

  it("carries title/body as the notification, the flat data map (with notification_id), and normal priority for bulk", async () => {
    await createFcmProvider(config()).send([message(2, ["tok-a"])]);
    expect(JSON.parse(fake.requests[0]!.body)).toEqual({
      message: {
        token: "tok-a",
        notification: { title: "Title 2", body: "Body 2" },
        data: { notification_id: "2", order: "A-17" },
        android: { priority: "normal", notification: { tag: "2" } },
        apns: { headers: { "apns-priority": "5", "apns-collapse-id": "2" } },
        webpush: { headers: { Urgency: "normal" }, notification: { tag: "2" } },
      },
    });
  });

  it("sends android.priority high (and APNs priority 10, web urgency high) on the critical lane", async () => {
    await createFcmProvider(config()).send([message(3, ["tok-a"], { lane: "critical" })]);
    const sent = JSON.parse(fake.requests[0]!.body) as { message: Record<string, { priority?: string; headers?: Record<string, string> }> };
    expect(sent.message.android!.priority).toBe("high");
    expect(sent.message.apns!.headers!["apns-priority"]).toBe("10");
    expect(sent.message.webpush!.headers!.Urgency).toBe("high");
  });

  it("sends only the token's own platform options when platformOf knows it", async () => {
    await createFcmProvider(config({ platformOf: (t) => (t.startsWith("ios") ? "ios" : undefined) })).send([message(4, ["ios-1"], { lane: "critical" })]);
    expect(Object.keys((JSON.parse(fake.requests[0]!.body) as { message: object }).message).sort()).toEqual(["apns", "data", "notification", "token"]);
  });

  it("reuses one firebase-admin app per config, and its token, across providers and sends", async () => {
    const own = testServiceAccount("herald-test");
    const before = getApps().length;
    const first = createFcmProvider(config({ name: "fcm-reuse", serviceAccount: own }));
    const second = createFcmProvider(config({ name: "fcm-reuse", serviceAccount: { ...own } }));
    expect(getApps().length).toBe(before + 1);
    await first.send([message(5, ["tok-a"])]);
    await second.send([message(6, ["tok-a"])]);
    expect(oauth.seen).toHaveLength(1);
  });

  it("keeps at most `concurrency` requests in flight and answers one result per message, in order", async () => {
    fake.answer = async (request, index) => {
      await new Promise((r) => setTimeout(r, 15));
      return TOKEN_ANSWERS[tokenOf(request)]?.(index) ?? { status: 200, body: JSON.stringify({ name: `projects/herald-test/messages/${tokenOf(request)}` }) };
    };
    const messages = Array.from({ length: 6 }, (_, i) => message(10 + i, [`u${i}-a`, `u${i}-b`, i % 2 ? "unregistered" : `u${i}-c`]));
    const results = await createFcmProvider(config(), { concurrency: 4 }).send(messages);
    expect(fake.requests).toHaveLength(18);
    expect(fake.maxInFlight).toBe(4);
    expect(results.map((r) => r.outcome)).toEqual(messages.map((_, i) => ({ kind: "sent", providerMessageId: `projects/herald-test/messages/u${i}-a` })));
    expect(results.map((r) => r.invalidTokens ?? [])).toEqual(messages.map((_, i) => (i % 2 ? [{ token: "unregistered", reason: "unregistered" }] : [])));
  });

  it("sends to at most 500 tokens of one user", async () => {
    const tokens = Array.from({ length: 502 }, (_, i) => `t${i}`);
    await createFcmProvider(config(), { concurrency: 64 }).send([message(20, tokens)]);
    expect(fake.requests).toHaveLength(500);
  });
});

describe("FCM provider: per-token results and each error row, with the fixtures' bodies", () => {
  const send = async (tokens: string[], extra: Partial<OutboundMessage> = {}) => (await createFcmProvider(config(), { timeoutMs: 300 }).send([message(30, tokens, extra)]))[0]!;

  it("sent when one token accepted; unregistered and invalid tokens reported for deactivation", async () => {
    expect(await send(["unregistered", "tok-ok", "bad-token"])).toEqual({
      outcome: { kind: "sent", providerMessageId: expect.stringMatching(/^projects\/herald-test\/messages\/\d+$/) },
      latencyMs: expect.any(Number),
      invalidTokens: [
        { token: "unregistered", reason: "unregistered" },
        { token: "bad-token", reason: "invalid_registration_token" },
      ],
    });
  });

  it("every token invalid → dead, all of them deactivated", async () => {
    expect(await send(["unregistered", "bad-token"])).toMatchObject({
      outcome: { kind: "dead", reason: "provider_rejected:UNREGISTERED" },
      invalidTokens: [
        { token: "unregistered", reason: "unregistered" },
        { token: "bad-token", reason: "invalid_registration_token" },
      ],
    });
  });

  it("INVALID_ARGUMENT on the payload → dead provider_rejected:INVALID_ARGUMENT, no token touched", async () => {
    const result = await send(["bad-payload"]);
    expect(result.outcome).toEqual({ kind: "dead", reason: "provider_rejected:INVALID_ARGUMENT", providerCode: "INVALID_ARGUMENT" });
    expect(result.invalidTokens).toBeUndefined();
  });

  it("SENDER_ID_MISMATCH on one token → that token deactivated", async () => {
    expect(await send(["other-project", "tok-ok"])).toMatchObject({
      outcome: { kind: "sent" },
      invalidTokens: [{ token: "other-project", reason: "sender_id_mismatch" }],
    });
  });

  it("SENDER_ID_MISMATCH on most tokens of the call → outage, tokens kept", async () => {
    fake.answer = () => jsonFixtureAnswer(403, "fcm-error-sender-id-mismatch.json");
    const results = await createFcmProvider(config()).send([message(31, ["a", "b"]), message(32, ["c"]), message(33, ["d"])]);
    for (const result of results) {
      expect(result.outcome).toEqual({ kind: "outage", reason: "credentials_outage", providerCode: "SENDER_ID_MISMATCH" });
      expect(result.invalidTokens).toBeUndefined();
    }
  });

  it("THIRD_PARTY_AUTH_ERROR → outage, the token never deactivated", async () => {
    const result = await send(["apns-broken"]);
    expect(result.outcome).toEqual({ kind: "outage", reason: "credentials_outage", providerCode: "THIRD_PARTY_AUTH_ERROR" });
    expect(result.invalidTokens).toBeUndefined();
  });

  it("QUOTA_EXCEEDED → retry after at least 60 s", async () => {
    expect((await send(["quota"])).outcome).toEqual({ kind: "retry", reason: "quota_exceeded", providerCode: "QUOTA_EXCEEDED", afterMs: 60_000 });
  });

  it("UNAVAILABLE → retry after Retry-After; INTERNAL → retry", async () => {
    expect((await send(["unavailable"])).outcome).toEqual({ kind: "retry", reason: "unavailable", providerCode: "UNAVAILABLE", afterMs: 5000 });
    expect((await send(["internal"])).outcome).toEqual({ kind: "retry", reason: "internal", providerCode: "INTERNAL" });
  });

  it("a transient failure wins over invalid tokens (retry), an auth failure over both (outage)", async () => {
    expect(await send(["unavailable", "unregistered"])).toMatchObject({
      outcome: { kind: "retry" },
      invalidTokens: [{ token: "unregistered", reason: "unregistered" }],
    });
    expect((await send(["unavailable", "apns-broken"])).outcome.kind).toBe("outage");
  });

  it("a dropped connection or no answer → retry", async () => {
    expect((await send(["reset"])).outcome).toMatchObject({ kind: "retry", reason: "network_error" });
    expect((await send(["hang"])).outcome).toEqual({ kind: "retry", reason: "timeout", providerCode: "timeout" });
  });

  it("no tokens → dead unreachable:device, with no request at all", async () => {
    expect((await send([])).outcome).toEqual({ kind: "dead", reason: "unreachable:device" });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("FCM provider: exactly one HTTP request per token per attempt", () => {
  it("on 503 (which firebase-admin would repeat 5 times), on a reset, and on 500", async () => {
    const provider = createFcmProvider(config());
    for (const [token, answer] of [
      ["t503", jsonFixtureAnswer(503, "fcm-error-unavailable.json")],
      ["treset", { destroy: true } as const],
      ["t500", jsonFixtureAnswer(500, "fcm-error-internal.json")],
    ] as const) {
      fake.reset();
      fake.answer = () => answer;
      const started = performance.now();
      const [result] = await provider.send([message(40, [`${token}-1`, `${token}-2`])]);
      expect(result!.outcome.kind).toBe("retry");
      expect(fake.requests.map(tokenOf).sort()).toEqual([`${token}-1`, `${token}-2`]);
      expect(performance.now() - started).toBeLessThan(2000);
    }
  });
});

describe("FCM provider: the OAuth exchange", () => {
  it("a refused service account (invalid_grant) → outage for every message, and nothing sent", async () => {
    nock.cleanAll();
    interceptOAuthToken({ status: 400, body: { error: "invalid_grant", error_description: "Invalid JWT Signature." } });
    const provider = createFcmProvider(config({ name: "fcm-revoked", serviceAccount: testServiceAccount("herald-revoked") }));
    const results = await provider.send([message(50, ["tok-a"]), message(51, ["tok-b"])]);
    expect(results.map((r) => r.outcome)).toEqual([
      { kind: "outage", reason: "credentials_outage", providerCode: "oauth_400" },
      { kind: "outage", reason: "credentials_outage", providerCode: "oauth_400" },
    ]);
    expect(fake.requests).toHaveLength(0);
  });

  it("a token endpoint that never answers → retry after the provider's timeout, nothing sent", async () => {
    nock.cleanAll();
    nock("https://oauth2.googleapis.com").post("/token").delay(60_000).reply(200, { access_token: "ya29.late", expires_in: 3599, token_type: "Bearer" });
    const provider = createFcmProvider(config({ name: "fcm-hung-oauth", serviceAccount: testServiceAccount("herald-hung-oauth") }), { timeoutMs: 300 });
    const started = performance.now();
    const [result] = await provider.send([message(52, ["tok-a"])]);
    expect(result!.outcome).toEqual({ kind: "retry", reason: "oauth_unavailable" });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(fake.requests).toHaveLength(0);
  });

  it("refuses a service account without a project id", () => {
    expect(() => createFcmProvider(config({ serviceAccount: { client_email: "x", private_key: "y" } }))).toThrow(/project_id/);
  });
});

describe("FCM provider: results as they land", () => {
  it("reports each message once its last token answered, with the result the call returns; a sender-id mismatch waits for the whole call", async () => {
    const heard: Array<[number, unknown]> = [];
    const messages = [message(1, ["tok-a", "unregistered"]), message(2, ["tok-c"]), message(3, ["other-project"])];
    const results = await createFcmProvider(config()).send(messages, { onResult: (index, result) => heard.push([index, result]) });

    expect(heard.map(([index]) => index).sort()).toEqual([0, 1]);
    for (const [index, result] of heard) expect(result).toEqual({ ...results[index], latencyMs: expect.any(Number) });
  });
});

describe("FCM provider: token permits", () => {
  it("asks once per message, before its first token's call; a message refused calls none of its tokens and answers notCalled", async () => {
    const asked: string[] = [];
    const messages = [message(1, ["tok-a", "tok-b"]), message(2, ["tok-c", "tok-d"]), message(3, ["tok-e"])];
    const results = await createFcmProvider(config(), { concurrency: 2 }).send(messages, {
      permit: async (m) => (asked.push(m.notificationId), m.notificationId !== "2"),
    });

    expect(asked).toEqual(["1", "2", "3"]);
    expect(fake.requests.map(tokenOf).sort()).toEqual(["tok-a", "tok-b", "tok-e"]);
    expect(results.map((r) => r.outcome.kind)).toEqual(["sent", "retry", "sent"]);
    expect(results[1]).toMatchObject({ notCalled: true });
  });
});
