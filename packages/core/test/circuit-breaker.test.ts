import { describe, expect, it } from "vitest";
import { CLOSED_BREAKER, breakerAdmits, markTrial, recordBreakerResult, type BreakerState } from "../src/resilience/circuit-breaker.ts";

const POLICY = { failureThreshold: 5, coolDownMs: 30_000 };
const T0 = new Date("2026-05-04T12:00:00.000Z");
const later = (ms: number) => new Date(T0.getTime() + ms);

const FOUR_FAILURES: BreakerState = { ...CLOSED_BREAKER, consecutiveFailures: 4 };
const OPEN: BreakerState = { state: "open", consecutiveFailures: 5, openedAt: T0, reason: "failure_threshold" };
const HALF_OPEN: BreakerState = { state: "half_open", consecutiveFailures: 5, openedAt: T0, reason: "failure_threshold" };

describe("breakerAdmits", () => {
  it("lets everything through when closed", () => {
    expect(breakerAdmits(CLOSED_BREAKER, T0, POLICY)).toBe("yes");
  });

  it("refuses while open and within the cool-down", () => {
    expect(breakerAdmits(OPEN, later(29_999), POLICY)).toBe("no");
  });

  it("allows one trial once the cool-down has passed", () => {
    expect(breakerAdmits(OPEN, later(30_000), POLICY)).toBe("trial");
  });

  it("refuses while a trial is out", () => {
    expect(breakerAdmits(HALF_OPEN, later(10_000), POLICY)).toBe("no");
  });

  it("allows another trial when the last one has been out for a whole cool-down", () => {
    expect(breakerAdmits(HALF_OPEN, later(30_000), POLICY)).toBe("trial");
  });
});

describe("markTrial", () => {
  it("half-opens the breaker from the moment the trial goes out", () => {
    expect(markTrial(OPEN, later(31_000))).toEqual({
      next: { state: "half_open", consecutiveFailures: 5, openedAt: later(31_000), reason: "failure_threshold" },
      transition: "half_opened",
    });
  });
});

describe("recordBreakerResult", () => {
  it("counts provider failures while closed", () => {
    expect(recordBreakerResult(CLOSED_BREAKER, "provider_failure", T0, POLICY)).toEqual({
      next: { state: "closed", consecutiveFailures: 1, openedAt: null, reason: null },
      transition: null,
    });
  });

  it("opens at the fifth provider failure in a row", () => {
    expect(recordBreakerResult(FOUR_FAILURES, "provider_failure", T0, POLICY)).toEqual({
      next: { state: "open", consecutiveFailures: 5, openedAt: T0, reason: "failure_threshold" },
      transition: "opened",
    });
  });

  it("resets the count on a success while closed, with nothing to persist", () => {
    expect(recordBreakerResult(FOUR_FAILURES, "success", T0, POLICY)).toEqual({ next: CLOSED_BREAKER, transition: null });
  });

  it("opens at once on an outage", () => {
    expect(recordBreakerResult(CLOSED_BREAKER, "outage", T0, POLICY)).toEqual({
      next: { state: "open", consecutiveFailures: 1, openedAt: T0, reason: "outage" },
      transition: "opened",
    });
  });

  it("never counts a recipient error", () => {
    expect(recordBreakerResult(FOUR_FAILURES, "recipient_error", T0, POLICY)).toEqual({ next: FOUR_FAILURES, transition: null });
    expect(recordBreakerResult(HALF_OPEN, "recipient_error", T0, POLICY)).toEqual({ next: HALF_OPEN, transition: null });
  });

  it("closes when the trial succeeds", () => {
    expect(recordBreakerResult(HALF_OPEN, "success", later(31_000), POLICY)).toEqual({ next: CLOSED_BREAKER, transition: "closed" });
  });

  it("reopens at once when the trial fails", () => {
    expect(recordBreakerResult(HALF_OPEN, "provider_failure", later(31_000), POLICY)).toEqual({
      next: { state: "open", consecutiveFailures: 6, openedAt: later(31_000), reason: "trial_failed" },
      transition: "opened",
    });
  });

  it("keeps an open breaker open, and its cool-down unchanged, for late results of earlier calls", () => {
    expect(recordBreakerResult(OPEN, "success", later(5_000), POLICY)).toEqual({ next: OPEN, transition: null });
    expect(recordBreakerResult(OPEN, "provider_failure", later(5_000), POLICY)).toEqual({
      next: { ...OPEN, consecutiveFailures: 6 },
      transition: null,
    });
  });
});
