import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_POLICY, backoffDelayMs, decideAfterFailure, retryDelayMs } from "../src/retry/backoff.ts";
import type { RetryOutcome } from "../src/outcomes/send-outcome.ts";

const atCeiling = () => 1;
const threeQuarters = () => 0.75;
const half = () => 0.5;
const zero = () => 0;
const failedCalls = [1, 2, 3, 4, 5, 6, 7, 8];

describe("backoffDelayMs", () => {
  it("doubles the ceiling from 10 s to 1,280 s over eight failed calls, 2,550 s in all", () => {
    const ceilings = failedCalls.map((k) => backoffDelayMs(k, atCeiling));
    expect(ceilings).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000, 1_280_000]);
    expect(ceilings.reduce((sum, ms) => sum + ms, 0)).toBe(2_550_000);
  });

  it("waits a random share of the ceiling (full jitter)", () => {
    expect(failedCalls.map((k) => backoffDelayMs(k, threeQuarters))).toEqual([
      10_000, 15_000, 30_000, 60_000, 120_000, 240_000, 480_000, 960_000,
    ]);
    expect(backoffDelayMs(8, () => 0.999)).toBeCloseTo(1_278_720, 6);
  });

  it("never waits less than the 10 s floor", () => {
    expect(failedCalls.map((k) => backoffDelayMs(k, zero))).toEqual(Array(8).fill(10_000));
    expect(backoffDelayMs(1, half)).toBe(10_000);
    expect(backoffDelayMs(2, half)).toBe(10_000);
    expect(backoffDelayMs(3, half)).toBe(20_000);
  });

  it("follows a custom policy", () => {
    expect(backoffDelayMs(3, half, { floorMs: 1_000, baseMs: 2_000, maxAttempts: 5, maxAgeMs: 60_000 })).toBe(4_000);
  });

  it("refuses a call count below 1, which is a bug in the caller", () => {
    expect(() => backoffDelayMs(0, half)).toThrow("failedCalls must be a whole number of at least 1, got 0");
  });
});

describe("retryDelayMs", () => {
  it("lets a Retry-After of 60 s beat the backoff", () => {
    expect(retryDelayMs(1, 60_000, half)).toBe(60_000);
    expect(retryDelayMs(6, 60_000, atCeiling)).toBe(60_000);
  });

  it("ignores a Retry-After of 5 s, shorter than the floor, and backs off", () => {
    expect(retryDelayMs(1, 5_000, half)).toBe(10_000);
    expect(retryDelayMs(4, 5_000, half)).toBe(40_000);
  });

  it("ignores a Retry-After equal to the floor", () => {
    expect(retryDelayMs(3, 10_000, half)).toBe(20_000);
  });

  it("backs off when there is no Retry-After", () => {
    expect(retryDelayMs(5, undefined, half)).toBe(80_000);
  });
});

const FIRST_ATTEMPT = new Date("2026-05-04T12:00:00.000Z");
const SERVER_ERROR: RetryOutcome = { kind: "retry", reason: "http_503", providerCode: "503" };
const RATE_LIMITED: RetryOutcome = { kind: "retry", afterMs: 60_000, reason: "http_429", providerCode: "429" };

function decide(overrides: { now: string; attemptCount: number; outcome?: RetryOutcome; deferredMs?: number; random?: () => number }) {
  return decideAfterFailure({
    outcome: overrides.outcome ?? SERVER_ERROR,
    attemptCount: overrides.attemptCount,
    firstAttemptAt: FIRST_ATTEMPT,
    deferredMs: overrides.deferredMs ?? 0,
    now: new Date(overrides.now),
    random: overrides.random ?? half,
    policy: DEFAULT_RETRY_POLICY,
  });
}

describe("decideAfterFailure", () => {
  it("retries after the floor when the first call fails", () => {
    expect(decide({ now: "2026-05-04T12:00:02.000Z", attemptCount: 1 })).toEqual({
      kind: "retry",
      at: new Date("2026-05-04T12:00:12.000Z"),
      delayMs: 10_000,
      attemptSpent: true,
    });
  });

  it("backs off further after the third call", () => {
    expect(decide({ now: "2026-05-04T12:01:00.000Z", attemptCount: 3 })).toEqual({
      kind: "retry",
      at: new Date("2026-05-04T12:01:20.000Z"),
      delayMs: 20_000,
      attemptSpent: true,
    });
  });

  it("waits as long as the provider's Retry-After says", () => {
    expect(decide({ now: "2026-05-04T12:00:02.000Z", attemptCount: 1, outcome: RATE_LIMITED })).toEqual({
      kind: "retry",
      at: new Date("2026-05-04T12:01:02.000Z"),
      delayMs: 60_000,
      attemptSpent: false,
    });
  });

  it("still retries after the seventh call", () => {
    expect(decide({ now: "2026-05-04T12:10:00.000Z", attemptCount: 7 })).toEqual({
      kind: "retry",
      at: new Date("2026-05-04T12:15:20.000Z"),
      delayMs: 320_000,
      attemptSpent: true,
    });
  });

  it("dead-letters with max_attempts after the eighth call", () => {
    expect(decide({ now: "2026-05-04T12:20:00.000Z", attemptCount: 8 })).toEqual({ kind: "dead", reason: "max_attempts" });
  });

  it("dead-letters with max_age once an hour has passed", () => {
    expect(decide({ now: "2026-05-04T13:00:00.000Z", attemptCount: 2 })).toEqual({ kind: "dead", reason: "max_age" });
  });

  it("dead-letters with max_age when the next attempt would land after the hour", () => {
    expect(decide({ now: "2026-05-04T12:59:50.000Z", attemptCount: 3 })).toEqual({ kind: "dead", reason: "max_age" });
    expect(decide({ now: "2026-05-04T12:59:02.000Z", attemptCount: 1, outcome: RATE_LIMITED })).toEqual({ kind: "dead", reason: "max_age" });
  });

  it("retries when the next attempt lands exactly on the deadline", () => {
    expect(decide({ now: "2026-05-04T12:59:40.000Z", attemptCount: 3 })).toEqual({
      kind: "retry",
      at: new Date("2026-05-04T13:00:00.000Z"),
      delayMs: 20_000,
      attemptSpent: true,
    });
  });

  it("does not count 15 minutes of deferral towards the age", () => {
    const deferredMs = 15 * 60_000;
    expect(decide({ now: "2026-05-04T13:10:00.000Z", attemptCount: 2, deferredMs })).toEqual({
      kind: "retry",
      at: new Date("2026-05-04T13:10:10.000Z"),
      delayMs: 10_000,
      attemptSpent: true,
    });
    expect(decide({ now: "2026-05-04T13:10:00.000Z", attemptCount: 2 })).toEqual({ kind: "dead", reason: "max_age" });
    expect(decide({ now: "2026-05-04T13:14:55.000Z", attemptCount: 2, deferredMs })).toEqual({ kind: "dead", reason: "max_age" });
  });

  it("spends no attempt on back-pressure: a throttle after the eighth call still retries, and still ages out", () => {
    const THROTTLED: RetryOutcome = { kind: "retry", reason: "throttled" };
    expect(decide({ now: "2026-05-04T12:20:00.000Z", attemptCount: 8, outcome: RATE_LIMITED })).toEqual({
      kind: "retry",
      at: new Date("2026-05-04T12:21:00.000Z"),
      delayMs: 60_000,
      attemptSpent: false,
    });
    expect(decide({ now: "2026-05-04T12:20:00.000Z", attemptCount: 8, outcome: THROTTLED })).toMatchObject({ kind: "retry", attemptSpent: false });
    expect(decide({ now: "2026-05-04T13:00:00.000Z", attemptCount: 8, outcome: THROTTLED })).toEqual({ kind: "dead", reason: "max_age" });
  });

  it("checks attempts before age", () => {
    expect(decide({ now: "2026-05-04T14:00:00.000Z", attemptCount: 8 })).toEqual({ kind: "dead", reason: "max_attempts" });
  });
});
