import { describe, expect, it } from "vitest";
import {
  classifyCredentialError,
  classifyFcmNetworkError,
  classifyFcmResponse,
  combineTokenResults,
  fcmErrorBody,
  type FcmTokenResult,
} from "../src/providers/fcm/fcm-errors.ts";
import { rampedRate } from "../src/providers/fcm/ramped-rate.ts";
import { fixture } from "./support/recording-server.ts";

const now = new Date("2026-12-01T12:00:00Z");
const answer = (status: number, name: string, retryAfter: string | null = null) => classifyFcmResponse({ status, body: fixture(name), retryAfter }, now);

describe("FCM v1 errors → token results, row by row with the fixtures' bodies", () => {
  it("UNREGISTERED (404) → the token is invalid: unregistered", () => {
    expect(answer(404, "fcm-error-unregistered.json")).toEqual({ kind: "invalid_token", reason: "unregistered", code: "UNREGISTERED" });
  });

  it("INVALID_ARGUMENT saying the token is not a valid registration token → invalid: invalid_registration_token", () => {
    expect(answer(400, "fcm-error-invalid-argument-token.json")).toEqual({
      kind: "invalid_token",
      reason: "invalid_registration_token",
      code: "INVALID_ARGUMENT",
    });
  });

  it("any other INVALID_ARGUMENT (a bad data value) → payload: dead provider_rejected:INVALID_ARGUMENT", () => {
    expect(answer(400, "fcm-error-invalid-argument-field.json")).toEqual({ kind: "payload", code: "INVALID_ARGUMENT" });
    expect(combineTokenResults(["t"], [{ kind: "payload", code: "INVALID_ARGUMENT" }], false).outcome).toEqual({
      kind: "dead",
      reason: "provider_rejected:INVALID_ARGUMENT",
      providerCode: "INVALID_ARGUMENT",
    });
  });

  it("INVALID_ARGUMENT with a field violation on message.token → invalid token", () => {
    const body = JSON.stringify({
      error: {
        code: 400,
        message: "Request contains an invalid argument.",
        status: "INVALID_ARGUMENT",
        details: [{ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "message.token", description: "Invalid registration token" }] }],
      },
    });
    expect(classifyFcmResponse({ status: 400, body, retryAfter: null }, now)).toMatchObject({ kind: "invalid_token", reason: "invalid_registration_token" });
  });

  it("SENDER_ID_MISMATCH (403) → invalid: sender_id_mismatch (the call decides whether it is an outage)", () => {
    expect(answer(403, "fcm-error-sender-id-mismatch.json")).toEqual({ kind: "invalid_token", reason: "sender_id_mismatch", code: "SENDER_ID_MISMATCH" });
  });

  it("THIRD_PARTY_AUTH_ERROR (401) → auth: an outage, the token kept", () => {
    expect(answer(401, "fcm-error-third-party-auth.json")).toEqual({ kind: "auth", code: "THIRD_PARTY_AUTH_ERROR" });
  });

  it("QUOTA_EXCEEDED (429) → transient, at least 60 s, longer if Retry-After says so", () => {
    expect(answer(429, "fcm-error-quota-exceeded.json")).toEqual({ kind: "transient", reason: "quota_exceeded", code: "QUOTA_EXCEEDED", afterMs: 60_000 });
    expect(answer(429, "fcm-error-quota-exceeded.json", "10")).toMatchObject({ afterMs: 60_000 });
    expect(answer(429, "fcm-error-quota-exceeded.json", "120")).toMatchObject({ afterMs: 120_000 });
    expect(classifyFcmResponse({ status: 429, body: "Too Many Requests", retryAfter: null }, now)).toMatchObject({ kind: "transient", afterMs: 60_000 });
  });

  it("UNAVAILABLE (503) → transient, honouring Retry-After (seconds or HTTP-date)", () => {
    expect(answer(503, "fcm-error-unavailable.json")).toEqual({ kind: "transient", reason: "unavailable", code: "UNAVAILABLE" });
    expect(answer(503, "fcm-error-unavailable.json", "5")).toMatchObject({ afterMs: 5000 });
    expect(answer(503, "fcm-error-unavailable.json", "Tue, 01 Dec 2026 12:00:20 GMT")).toMatchObject({ afterMs: 20_000 });
  });

  it("INTERNAL (500) and any other 5xx → transient", () => {
    expect(answer(500, "fcm-error-internal.json")).toEqual({ kind: "transient", reason: "internal", code: "INTERNAL" });
    expect(classifyFcmResponse({ status: 502, body: "<html>Bad Gateway</html>", retryAfter: "3" }, now)).toEqual({
      kind: "transient",
      reason: "http_502",
      code: "502",
      afterMs: 3000,
    });
  });

  it("401/403 without an FcmError (our service account) → auth; a bare 404 (wrong project or endpoint) → auth, never an invalid token", () => {
    const unauthenticated = JSON.stringify({ error: { code: 401, message: "Request had invalid authentication credentials.", status: "UNAUTHENTICATED" } });
    expect(classifyFcmResponse({ status: 401, body: unauthenticated, retryAfter: null }, now)).toEqual({ kind: "auth", code: "UNAUTHENTICATED" });
    expect(classifyFcmResponse({ status: 403, body: "Forbidden", retryAfter: null }, now)).toEqual({ kind: "auth", code: "403" });
    expect(classifyFcmResponse({ status: 404, body: "<html>Not Found</html>", retryAfter: null }, now)).toEqual({ kind: "auth", code: "404" });
  });

  it("other 4xx → payload (dead); a 2xx without a message name → transient", () => {
    expect(classifyFcmResponse({ status: 413, body: "", retryAfter: null }, now)).toEqual({ kind: "payload", code: "413" });
    expect(classifyFcmResponse({ status: 200, body: "{}", retryAfter: null }, now)).toEqual({ kind: "transient", reason: "malformed_response", code: "200" });
    expect(classifyFcmResponse({ status: 200, body: '{"name":"projects/p/messages/1"}', retryAfter: null }, now)).toEqual({
      kind: "accepted",
      name: "projects/p/messages/1",
    });
  });

  it("timeouts and dropped connections → transient", () => {
    expect(classifyFcmNetworkError(new DOMException("timed out", "TimeoutError"))).toEqual({ kind: "transient", reason: "timeout", code: "timeout" });
    expect(classifyFcmNetworkError(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET" } }))).toEqual({
      kind: "transient",
      reason: "network_error",
      code: "ECONNRESET",
    });
  });

  it("a refused OAuth exchange is an outage; Google unreachable is a retry", () => {
    expect(classifyCredentialError({ response: { status: 400 } })).toEqual({ kind: "outage", reason: "credentials_outage", providerCode: "oauth_400" });
    expect(classifyCredentialError(new Error("getaddrinfo ENOTFOUND oauth2.googleapis.com"))).toEqual({ kind: "retry", reason: "oauth_unavailable" });
    expect(classifyCredentialError({ status: 503 })).toEqual({ kind: "retry", reason: "oauth_unavailable", providerCode: "oauth_503" });
  });
});

describe("fcm-error-mapping.md: every FCM errorCode in the table is classified as it says", () => {
  const expected: Record<string, FcmTokenResult["kind"]> = {
    UNREGISTERED: "invalid_token",
    INVALID_ARGUMENT: "payload", // without the token message; with it, invalid_token (above)
    SENDER_ID_MISMATCH: "invalid_token",
    THIRD_PARTY_AUTH_ERROR: "auth",
    QUOTA_EXCEEDED: "transient",
    UNAVAILABLE: "transient",
    INTERNAL: "transient",
    UNSPECIFIED_ERROR: "transient",
  };
  const rows = fixture("fcm-error-mapping.md")
    .split("\n")
    .map((line) => /^\| ([A-Z_]+) \| (\d{3}|-) \|/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(([, code, status]) => ({ code: code!, status: status === "-" ? 400 : Number(status) }));

  it("reads the table's rows", () => {
    expect(rows.map((r) => r.code).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.keys(expected))("%s", (code) => {
    const row = rows.find((r) => r.code === code)!;
    const body = JSON.stringify({
      error: { code: row.status, message: "…", status: "X", details: [{ "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode: code }] },
    });
    expect(classifyFcmResponse({ status: row.status, body, retryAfter: null }, now).kind).toBe(expected[code]);
  });

  it("reads errorCode from the FcmError detail before the canonical status", () => {
    expect(fcmErrorBody(fixture("fcm-error-unregistered.json")).code).toBe("UNREGISTERED");
    expect(fcmErrorBody(fixture("fcm-error-invalid-argument-field.json")).code).toBe("INVALID_ARGUMENT");
    expect(fcmErrorBody("not json").code).toBeNull();
  });
});

describe("combineTokenResults: one message over its tokens", () => {
  const ok: FcmTokenResult = { kind: "accepted", name: "projects/p/messages/1" };
  const ok2: FcmTokenResult = { kind: "accepted", name: "projects/p/messages/2" };
  const gone: FcmTokenResult = { kind: "invalid_token", reason: "unregistered", code: "UNREGISTERED" };
  const bad: FcmTokenResult = { kind: "invalid_token", reason: "invalid_registration_token", code: "INVALID_ARGUMENT" };
  const mismatch: FcmTokenResult = { kind: "invalid_token", reason: "sender_id_mismatch", code: "SENDER_ID_MISMATCH" };
  const busy = (afterMs?: number): FcmTokenResult => ({ kind: "transient", reason: "unavailable", code: "UNAVAILABLE", ...(afterMs === undefined ? {} : { afterMs }) });
  const auth: FcmTokenResult = { kind: "auth", code: "THIRD_PARTY_AUTH_ERROR" };

  it("sent when one token accepted: the first accepted name, the invalid tokens reported", () => {
    expect(combineTokenResults(["a", "b", "c", "d"], [gone, ok, bad, ok2], false)).toEqual({
      outcome: { kind: "sent", providerMessageId: "projects/p/messages/1" },
      invalidTokens: [
        { token: "a", reason: "unregistered" },
        { token: "c", reason: "invalid_registration_token" },
      ],
    });
  });

  it("dead when every token is invalid", () => {
    expect(combineTokenResults(["a", "b"], [gone, bad], false)).toEqual({
      outcome: { kind: "dead", reason: "provider_rejected:UNREGISTERED", providerCode: "UNREGISTERED" },
      invalidTokens: [
        { token: "a", reason: "unregistered" },
        { token: "b", reason: "invalid_registration_token" },
      ],
    });
  });

  it("retry when any failure was transient, after the longest wait asked for", () => {
    expect(combineTokenResults(["a", "b", "c"], [busy(5000), gone, busy(60_000)], false)).toEqual({
      outcome: { kind: "retry", reason: "unavailable", providerCode: "UNAVAILABLE", afterMs: 60_000 },
      invalidTokens: [{ token: "b", reason: "unregistered" }],
    });
    expect(combineTokenResults(["a"], [busy()], false).outcome).toEqual({ kind: "retry", reason: "unavailable", providerCode: "UNAVAILABLE" });
  });

  it("outage when any failed on credentials, and such tokens are never reported invalid", () => {
    expect(combineTokenResults(["a", "b"], [auth, busy()], false)).toEqual({
      outcome: { kind: "outage", reason: "credentials_outage", providerCode: "THIRD_PARTY_AUTH_ERROR" },
      invalidTokens: [],
    });
  });

  it("SENDER_ID_MISMATCH: an invalid token, unless most of the call's tokens failed so (then an outage, tokens kept)", () => {
    expect(combineTokenResults(["a"], [mismatch], false)).toEqual({
      outcome: { kind: "dead", reason: "provider_rejected:SENDER_ID_MISMATCH", providerCode: "SENDER_ID_MISMATCH" },
      invalidTokens: [{ token: "a", reason: "sender_id_mismatch" }],
    });
    expect(combineTokenResults(["a"], [mismatch], true)).toEqual({
      outcome: { kind: "outage", reason: "credentials_outage", providerCode: "SENDER_ID_MISMATCH" },
      invalidTokens: [],
    });
  });

  it("no tokens at all → dead unreachable:device", () => {
    expect(combineTokenResults([], [], false).outcome).toEqual({ kind: "dead", reason: "unreachable:device" });
  });
});

describe("rampedRate: a cold start ramps from 10 % to 100 % over 60 s", () => {
  const start = new Date("2026-12-01T12:00:00Z");
  const at = (ms: number) => new Date(start.getTime() + ms);
  it.each([
    [0, 60],
    [15_000, 195],
    [30_000, 330],
    [59_000, 591],
    [60_000, 600],
    [600_000, 600],
    [-5_000, 60],
  ])("after %i ms, 600/s → %f/s", (ms, rate) => {
    expect(rampedRate(600, start, at(ms))).toBeCloseTo(rate, 6);
  });
});
