import { describe, expect, it } from "vitest";
import { classifyTwilioFailure, TWILIO_ERROR_CLASSES, twilioErrorClass } from "../src/providers/twilio/twilio-errors.ts";
import { fixture } from "./support/recording-server.ts";

const now = new Date("2026-12-01T12:00:00Z");

/** A REST failure as Twilio answers it, from a fixture body. */
function restFromFixture(name: string, retryAfter: string | null = null) {
  const body = JSON.parse(fixture(name)) as { code: number; status: number };
  return { kind: "rest" as const, status: body.status, code: body.code, retryAfter };
}

describe("Twilio REST errors → outcomes, row by row", () => {
  it("21211 (fixture): invalid 'To' → dead provider_rejected:21211", () => {
    expect(classifyTwilioFailure(restFromFixture("twilio-rest-error-21211.json"), now)).toEqual({
      outcome: { kind: "dead", reason: "provider_rejected:21211", providerCode: "21211" },
      suppressStop: false,
    });
  });

  it("21610 (fixture): the recipient replied STOP → dead, and the number is suppressed for stop", () => {
    expect(classifyTwilioFailure(restFromFixture("twilio-rest-error-21610.json"), now)).toEqual({
      outcome: { kind: "dead", reason: "provider_rejected:21610", providerCode: "21610" },
      suppressStop: true,
    });
  });

  it("20429 (fixture): too many requests → retry, honouring Retry-After in seconds or as an HTTP-date", () => {
    expect(classifyTwilioFailure(restFromFixture("twilio-rest-error-20429.json"), now)).toEqual({
      outcome: { kind: "retry", reason: "throttled", providerCode: "20429" },
      suppressStop: false,
    });
    expect(classifyTwilioFailure(restFromFixture("twilio-rest-error-20429.json", "7"), now).outcome).toEqual({
      kind: "retry",
      reason: "throttled",
      providerCode: "20429",
      afterMs: 7000,
    });
    expect(classifyTwilioFailure(restFromFixture("twilio-rest-error-20429.json", "Tue, 01 Dec 2026 12:00:30 GMT"), now).outcome).toMatchObject({
      afterMs: 30_000,
    });
  });

  it.each([
    [21612, 400],
    [21614, 400],
    [21408, 400],
    [21635, 400],
  ])("%i → dead provider_rejected:%i", (code, status) => {
    expect(classifyTwilioFailure({ kind: "rest", status, code, retryAfter: null }, now)).toEqual({
      outcome: { kind: "dead", reason: `provider_rejected:${code}`, providerCode: String(code) },
      suppressStop: false,
    });
  });

  it("20003 (authentication) and 30002 (account suspended) → outage: our account, not this message", () => {
    for (const [code, status] of [
      [20003, 401],
      [30002, 400],
    ] as const) {
      expect(classifyTwilioFailure({ kind: "rest", status, code, retryAfter: null }, now)).toEqual({
        outcome: { kind: "outage", reason: "credentials_outage", providerCode: String(code) },
        suppressStop: false,
      });
    }
    expect(classifyTwilioFailure({ kind: "rest", status: 401, code: null, retryAfter: null }, now).outcome.kind).toBe("outage");
  });

  it("5xx → retry http_<status>, with Retry-After when given", () => {
    expect(classifyTwilioFailure({ kind: "rest", status: 503, code: null, retryAfter: "12" }, now).outcome).toEqual({
      kind: "retry",
      reason: "http_503",
      providerCode: "503",
      afterMs: 12_000,
    });
    expect(classifyTwilioFailure({ kind: "rest", status: 500, code: 20500, retryAfter: null }, now).outcome).toEqual({
      kind: "retry",
      reason: "http_500",
      providerCode: "20500",
    });
  });

  it("other 4xx → dead provider_rejected:<code> (the status when the body has no code)", () => {
    expect(classifyTwilioFailure({ kind: "rest", status: 400, code: 21606, retryAfter: null }, now).outcome).toEqual({
      kind: "dead",
      reason: "provider_rejected:21606",
      providerCode: "21606",
    });
    expect(classifyTwilioFailure({ kind: "rest", status: 404, code: null, retryAfter: null }, now).outcome).toEqual({
      kind: "dead",
      reason: "provider_rejected:404",
      providerCode: "404",
    });
  });

  it("timeouts and network errors → retry (Twilio may have accepted it: no idempotency key exists)", () => {
    expect(classifyTwilioFailure({ kind: "network", code: "ECONNABORTED" }, now).outcome).toEqual({
      kind: "retry",
      reason: "timeout",
      providerCode: "ECONNABORTED",
    });
    expect(classifyTwilioFailure({ kind: "network", code: "ECONNRESET" }, now).outcome).toEqual({
      kind: "retry",
      reason: "network_error",
      providerCode: "ECONNRESET",
    });
    expect(classifyTwilioFailure({ kind: "network", code: null }, now).outcome).toEqual({ kind: "retry", reason: "network_error" });
  });
});

describe("twilio-error-codes.md: every code Twilio answers a create with is in the table", () => {
  // The fixture's "Class" column, as Herald acts on it (config errors that concern the whole
  // account are outages; 21408 concerns one destination region, so it fails that message).
  const expected: Record<number, string> = {
    20429: "retry",
    20003: "outage",
    21211: "dead",
    21408: "dead",
    21610: "stop",
    21612: "dead",
    21614: "dead",
    21635: "dead",
    30002: "outage",
  };
  const rows = fixture("twilio-error-codes.md")
    .split("\n")
    .map((line) => /^\| (\d{5}) \| ([^|]+) \|/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(([, code, where]) => ({ code: Number(code), where: where!.trim() }));

  it("reads the REST rows of the fixture", () => {
    expect(rows.filter((r) => r.where.startsWith("REST")).map((r) => r.code)).toEqual([20429, 20003, 21211, 21408, 21610, 21612, 21614, 21635]);
  });

  it.each(Object.entries(expected))("%s is classed %s", (code, errorClass) => {
    expect(TWILIO_ERROR_CLASSES[Number(code)]).toBe(errorClass);
    expect(twilioErrorClass(400, Number(code))).toBe(errorClass);
  });

  it("status-callback-only codes (30003…30008) are not REST answers: unknown codes fall back on the HTTP status", () => {
    expect(twilioErrorClass(400, 30003)).toBe("dead");
    expect(twilioErrorClass(503, 30008)).toBe("retry");
  });
});
