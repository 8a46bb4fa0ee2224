import { completeFinishedBroadcasts, pauseBroadcast, sendingBroadcastHealth } from "@herald/db";
import type { Task } from "graphile-worker";
import type pg from "pg";

export interface BroadcastThresholds {
  /** Percent of emails sent that bounced, above which a broadcast pauses itself. */
  maxBouncePercent: number;
  maxComplaintPercent: number;
}

/** Rates over fewer emails than this are noise: a single early bounce must not stop a send. */
export const MIN_EMAILS_FOR_AUTO_PAUSE = 200;

/** Why a broadcast should pause itself, in words, or null while it is healthy. */
export function autoPauseReason(h: { emailed: number; bounced: number; complaints: number }, t: BroadcastThresholds): string | null {
  if (h.emailed < MIN_EMAILS_FOR_AUTO_PAUSE) return null;
  const bounce = (100 * h.bounced) / h.emailed;
  const complaint = (100 * h.complaints) / h.emailed;
  if (bounce > t.maxBouncePercent) {
    return `auto-paused: ${bounce.toFixed(2)} % of ${h.emailed} emails bounced (limit ${t.maxBouncePercent} %)`;
  }
  if (complaint > t.maxComplaintPercent) {
    return `auto-paused: ${complaint.toFixed(2)} % of ${h.emailed} emails drew spam complaints (limit ${t.maxComplaintPercent} %)`;
  }
  return null;
}

/**
 * Every minute: pause any sending broadcast whose bounce or complaint rate passed its limit
 * (saying why), and mark broadcasts whose every row has settled as sent.
 */
export function watchBroadcastsTask(pool: pg.Pool, thresholds: () => Promise<BroadcastThresholds>): Task {
  return async (_payload, helpers) => {
    const limits = await thresholds();
    for (const health of await sendingBroadcastHealth(pool)) {
      const reason = autoPauseReason(health, limits);
      if (reason && (await pauseBroadcast(pool, health.id, reason, null)) !== null) {
        helpers.logger.warn(`broadcast ${health.id} ${reason}`);
      }
    }
    await completeFinishedBroadcasts(pool);
  };
}
