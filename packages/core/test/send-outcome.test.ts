import { describe, expect, it } from "vitest";
import { SendOutcomeSchema, assertNever, classifyHttpStatus, isBackpressure, parseRetryAfter, type SendOutcome } from "../src/outcomes/send-outcome.ts";

const NOW = new Date("2026-05-04T12:00:00.000Z");

describe("parseRetryAfter", () => {
  it.each([
    ["seconds", "120", 120_000],
    ["seconds with spaces", " 30 ", 30_000],
    ["zero seconds", "0", 0],
    ["negative seconds", "-5", 0],
    ["fractional seconds", "1.5", 1_500],
    ["an IMF-fixdate 90 s ahead", "Mon, 04 May 2026 12:01:30 GMT", 90_000],
    ["an IMF-fixdate in the past", "Mon, 04 May 2026 11:00:00 GMT", 0],
    ["an RFC 850 date", "Monday, 04-May-26 12:00:45 GMT", 45_000],
    ["an asctime date", "Mon May  4 12:02:00 2026", 120_000],
  ])("reads %s", (_label, header, ms) => {
    expect(parseRetryAfter(header, NOW)).toBe(ms);
  });

  it.each([
    ["garbage", "soon"],
    ["a number followed by words", "5 seconds"],
    ["an ISO date", "2026-05-04T12:01:00Z"],
    ["an impossible day", "Mon, 31 Feb 2026 12:00:00 GMT"],
    ["an unknown month", "Mon, 04 Foo 2026 12:00:00 GMT"],
    ["an empty header", ""],
    ["a missing header", null],
    ["an absent header", undefined],
  ])("gives undefined for %s", (_label, header) => {
    expect(parseRetryAfter(header, NOW)).toBeUndefined();
  });
});

describe("classifyHttpStatus", () => {
  it("leaves 2xx to the caller", () => {
    expect(classifyHttpStatus(200, null, NOW)).toBeNull();
    expect(classifyHttpStatus(202, "10", NOW)).toBeNull();
  });

  it("retries a 429 after its Retry-After", () => {
    expect(classifyHttpStatus(429, "30", NOW)).toEqual({ kind: "retry", afterMs: 30_000, reason: "http_429", providerCode: "429" });
    expect(classifyHttpStatus(429, "Mon, 04 May 2026 12:02:00 GMT", NOW)).toEqual({
      kind: "retry",
      afterMs: 120_000,
      reason: "http_429",
      providerCode: "429",
    });
  });

  it("retries a 429 without a readable Retry-After after 60 s", () => {
    expect(classifyHttpStatus(429, null, NOW)).toEqual({ kind: "retry", afterMs: 60_000, reason: "http_429", providerCode: "429" });
    expect(classifyHttpStatus(429, "later", NOW)).toEqual({ kind: "retry", afterMs: 60_000, reason: "http_429", providerCode: "429" });
  });

  it("retries 5xx and 408 with the backoff when there is no Retry-After", () => {
    expect(classifyHttpStatus(500, null, NOW)).toEqual({ kind: "retry", reason: "http_500", providerCode: "500" });
    expect(classifyHttpStatus(503, undefined, NOW)).toEqual({ kind: "retry", reason: "http_503", providerCode: "503" });
    expect(classifyHttpStatus(408, null, NOW)).toEqual({ kind: "retry", reason: "http_408", providerCode: "408" });
  });

  it("honours a Retry-After on a 503", () => {
    expect(classifyHttpStatus(503, "120", NOW)).toEqual({ kind: "retry", afterMs: 120_000, reason: "http_503", providerCode: "503" });
  });

  it("treats 401 and 403 as an outage of our credentials", () => {
    expect(classifyHttpStatus(401, null, NOW)).toEqual({ kind: "outage", reason: "credentials_outage", providerCode: "401" });
    expect(classifyHttpStatus(403, null, NOW)).toEqual({ kind: "outage", reason: "credentials_outage", providerCode: "403" });
  });

  it("dead-letters any other 4xx as provider_rejected", () => {
    expect(classifyHttpStatus(400, null, NOW)).toEqual({ kind: "dead", reason: "provider_rejected:400", providerCode: "400" });
    expect(classifyHttpStatus(404, "10", NOW)).toEqual({ kind: "dead", reason: "provider_rejected:404", providerCode: "404" });
    expect(classifyHttpStatus(422, null, NOW)).toEqual({ kind: "dead", reason: "provider_rejected:422", providerCode: "422" });
  });

  it("retries an unexpected redirect, leaving the breaker to notice a run of them", () => {
    expect(classifyHttpStatus(302, null, NOW)).toEqual({ kind: "retry", reason: "http_302", providerCode: "302" });
  });

  it("refuses a number that is not an HTTP status", () => {
    expect(() => classifyHttpStatus(42, null, NOW)).toThrow("42 is not an HTTP status code (100 to 599)");
  });
});

describe("isBackpressure", () => {
  it("is a throttle or a refusal that said how long to wait; other transient failures are not", () => {
    expect(isBackpressure({ kind: "retry", reason: "throttled" })).toBe(true);
    expect(isBackpressure({ kind: "retry", reason: "http_503", afterMs: 12_000 })).toBe(true);
    expect(isBackpressure({ kind: "retry", reason: "http_429", afterMs: 60_000 })).toBe(true);
    expect(isBackpressure({ kind: "retry", reason: "http_503" })).toBe(false);
    expect(isBackpressure({ kind: "retry", reason: "timeout" })).toBe(false);
  });
});

describe("SendOutcomeSchema", () => {
  it("accepts each kind", () => {
    expect(SendOutcomeSchema.parse({ kind: "sent", providerMessageId: "0100018f-abc" })).toEqual({ kind: "sent", providerMessageId: "0100018f-abc" });
    expect(SendOutcomeSchema.safeParse({ kind: "retry", afterMs: 1000, reason: "http_503" }).success).toBe(true);
    expect(SendOutcomeSchema.safeParse({ kind: "dead", reason: "provider_rejected:400", providerCode: "400" }).success).toBe(true);
    expect(SendOutcomeSchema.safeParse({ kind: "outage", reason: "credentials_outage" }).success).toBe(true);
  });

  it("rejects an unknown kind, a sent without id and a negative wait", () => {
    expect(SendOutcomeSchema.safeParse({ kind: "queued" }).success).toBe(false);
    expect(SendOutcomeSchema.safeParse({ kind: "sent", providerMessageId: "" }).success).toBe(false);
    expect(SendOutcomeSchema.safeParse({ kind: "retry", afterMs: -1, reason: "x" }).success).toBe(false);
  });
});

describe("assertNever", () => {
  it("makes a switch over SendOutcome exhaustive and throws if reached anyway", () => {
    const label = (outcome: SendOutcome): string => {
      switch (outcome.kind) {
        case "sent":
        case "retry":
        case "dead":
        case "outage":
          return outcome.kind;
        default:
          return assertNever(outcome);
      }
    };
    expect(label({ kind: "outage", reason: "credentials_outage" })).toBe("outage");
    expect(() => label({ kind: "lost" } as unknown as SendOutcome)).toThrow('unexpected value {"kind":"lost"}');
  });
});
