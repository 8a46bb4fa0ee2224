import { isBackpressure, type RetryOutcome } from "../outcomes/send-outcome.ts";

/** How long and how often a transient failure is retried. */
export interface RetryPolicy {
  /** No retry sooner than this, whatever the jitter or Retry-After says. */
  floorMs: number;
  /** The ceiling of the first backoff; it doubles with every failed call. */
  baseMs: number;
  /** Provider calls allowed in total, the first one included. */
  maxAttempts: number;
  /** Give up once this much time (excluding deferrals) has passed since the first attempt. */
  maxAgeMs: number;
}

// FCM's guidance: wait at least 10 s, stop after an hour. Eight calls leave seven waits with
// ceilings 10 + 20 + … + 640 s = 1,270 s, well inside the hour even at full jitter.
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  floorMs: 10_000,
  baseMs: 10_000,
  maxAttempts: 8,
  maxAgeMs: 3_600_000,
};

/**
 * What to do after a transient failure. `attemptSpent` is false for back-pressure (a throttle, or
 * a refusal with Retry-After): the provider said "not now", not "this failed".
 */
export type RetryDecision = { kind: "retry"; at: Date; delayMs: number; attemptSpent: boolean } | { kind: "dead"; reason: "max_attempts" | "max_age" };

/**
 * Full-jitter backoff after the k-th failed call (k ≥ 1): a random wait below baseMs·2^(k−1),
 * never shorter than the floor. Jitter keeps a thousand jobs that failed together from
 * coming back together.
 */
export function backoffDelayMs(failedCalls: number, random: () => number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  if (!Number.isInteger(failedCalls) || failedCalls < 1) {
    throw new RangeError(`failedCalls must be a whole number of at least 1, got ${failedCalls}`);
  }
  return Math.max(policy.floorMs, random() * policy.baseMs * 2 ** (failedCalls - 1));
}

/** The wait before the next call: the provider's Retry-After when it is longer than the floor, else the backoff. */
export function retryDelayMs(
  failedCalls: number,
  retryAfterMs: number | undefined,
  random: () => number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): number {
  if (retryAfterMs !== undefined && retryAfterMs > policy.floorMs) return retryAfterMs;
  return backoffDelayMs(failedCalls, random, policy);
}

/** Everything decideAfterFailure needs; the clock and randomness come from the caller. */
export interface FailureContext {
  outcome: RetryOutcome;
  /** Calls made so far, including the one that just failed. */
  attemptCount: number;
  firstAttemptAt: Date;
  /** Time spent deferred (quiet hours, outages) since the first attempt; it does not age the notification. */
  deferredMs: number;
  now: Date;
  random: () => number;
  policy?: RetryPolicy;
}

/**
 * Retry at a given instant, or dead-letter because the attempts or the age ran out. Back-pressure
 * spends no attempt, however long a storm lasts, but still ages the message out at the maximum
 * age: a provider answering 429 for ever must not keep it pending for ever.
 */
export function decideAfterFailure({
  outcome,
  attemptCount,
  firstAttemptAt,
  deferredMs,
  now,
  random,
  policy = DEFAULT_RETRY_POLICY,
}: FailureContext): RetryDecision {
  const attemptSpent = !isBackpressure(outcome);
  if (attemptSpent && attemptCount >= policy.maxAttempts) return { kind: "dead", reason: "max_attempts" };
  const deadline = firstAttemptAt.getTime() + deferredMs + policy.maxAgeMs;
  if (now.getTime() >= deadline) return { kind: "dead", reason: "max_age" };
  const delayMs = retryDelayMs(attemptCount, outcome.afterMs, random, policy);
  const at = now.getTime() + delayMs;
  // Waiting past the deadline only to be dead-lettered on wake-up wastes a job and hides the
  // outcome for an hour; decide now.
  if (at > deadline) return { kind: "dead", reason: "max_age" };
  return { kind: "retry", at: new Date(at), delayMs, attemptSpent };
}
