/** A provider's circuit breaker, persisted by the caller only when it transitions. */
export interface BreakerState {
  state: "closed" | "open" | "half_open";
  /** Provider failures in a row; recipient errors never count. */
  consecutiveFailures: number;
  /** When it opened; in half_open, when the trial send went out. */
  openedAt: Date | null;
  /** Why it opened: "failure_threshold", "trial_failed" or "outage". */
  reason: string | null;
}

/** When to open and how long to wait before trying the provider again. */
export interface BreakerPolicy {
  failureThreshold: number;
  coolDownMs: number;
}

export const DEFAULT_BREAKER_POLICY: Readonly<BreakerPolicy> = { failureThreshold: 5, coolDownMs: 30_000 };

export const CLOSED_BREAKER: Readonly<BreakerState> = { state: "closed", consecutiveFailures: 0, openedAt: null, reason: null };

/** What one provider call says about the provider (not about the recipient). */
export type BreakerResult = "success" | "provider_failure" | "outage" | "recipient_error";

export type BreakerTransition = "opened" | "half_opened" | "closed";

/** The next state, and the transition the caller must persist (null: nothing to write). */
export interface BreakerUpdate {
  next: BreakerState;
  transition: BreakerTransition | null;
}

function cooledDown(state: BreakerState, now: Date, policy: BreakerPolicy): boolean {
  return state.openedAt === null || now.getTime() - state.openedAt.getTime() >= policy.coolDownMs;
}

/**
 * Whether a send may go to the provider: "yes", "no", or "trial" for the single probe that
 * decides whether to close again. A trial that never reports back (a crashed worker) would
 * keep the breaker half open for ever, so after a cool-down another trial is allowed.
 */
export function breakerAdmits(state: BreakerState, now: Date, policy: BreakerPolicy = DEFAULT_BREAKER_POLICY): "yes" | "trial" | "no" {
  switch (state.state) {
    case "closed":
      return "yes";
    case "open":
    case "half_open":
      return cooledDown(state, now, policy) ? "trial" : "no";
  }
}

/** Records that a trial send is going out: the breaker is half open until it reports. */
export function markTrial(state: BreakerState, now: Date): BreakerUpdate {
  return { next: { ...state, state: "half_open", openedAt: now }, transition: "half_opened" };
}

function open(state: BreakerState, now: Date, reason: string): BreakerUpdate {
  return { next: { state: "open", consecutiveFailures: state.consecutiveFailures + 1, openedAt: now, reason }, transition: "opened" };
}

/**
 * Feeds one call's result into the breaker. Only provider trouble counts: a bad address fails
 * the same way on any provider, so failing over for it would pay twice to learn nothing.
 */
export function recordBreakerResult(
  state: BreakerState,
  result: BreakerResult,
  now: Date,
  policy: BreakerPolicy = DEFAULT_BREAKER_POLICY,
): BreakerUpdate {
  switch (result) {
    case "recipient_error":
      return { next: state, transition: null };
    case "success":
      // A success arriving while open came from a call admitted before it opened; the
      // cool-down and its trial still decide.
      if (state.state === "open") return { next: state, transition: null };
      return { next: { ...CLOSED_BREAKER }, transition: state.state === "half_open" ? "closed" : null };
    case "outage":
      if (state.state === "open") return { next: { ...state, consecutiveFailures: state.consecutiveFailures + 1 }, transition: null };
      return open(state, now, "outage");
    case "provider_failure": {
      if (state.state === "half_open") return open(state, now, "trial_failed");
      const failures = state.consecutiveFailures + 1;
      if (state.state === "open") return { next: { ...state, consecutiveFailures: failures }, transition: null };
      if (failures >= policy.failureThreshold) return open(state, now, "failure_threshold");
      return { next: { ...state, consecutiveFailures: failures }, transition: null };
    }
  }
}
