/** How long a cold start takes to reach the full rate. */
export const RAMP_MS = 60_000;
/** The share of the full rate a cold start begins at. */
export const RAMP_START_SHARE = 0.1;

/**
 * The send rate `ms` after a cold start: FCM asks senders to ramp up to a large rate over a
 * minute rather than start at it. Linear from 10 % to 100 % over 60 s; the full rate before
 * `startedAt` never happens (a clock that moved back reads as the start).
 */
export function rampedRate(fullRate: number, startedAt: Date, now: Date): number {
  const elapsed = Math.max(0, now.getTime() - startedAt.getTime());
  const share = Math.min(1, RAMP_START_SHARE + ((1 - RAMP_START_SHARE) * elapsed) / RAMP_MS);
  return fullRate * share;
}
