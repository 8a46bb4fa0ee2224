import { BROADCAST_WATCH_KEY, BROADCAST_WATCH_QUEUE, completeFinishedBroadcasts, pauseBroadcast, queueBroadcastWatch, sendingBroadcastHealth } from "@herald/db";
import type { Task } from "graphile-worker";
import type pg from "pg";

export interface BroadcastThresholds {
  /** Percent of emails sent that bounced, above which a broadcast pauses itself. */
  maxBouncePercent: number;
  maxComplaintPercent: number;
}

/** Rates over fewer emails than this are noise: a single early bounce must not stop a send. */
export const MIN_EMAILS_FOR_AUTO_PAUSE = 200;

/** While anything is sending, the watch runs again this soon: completion and auto-pause land within seconds. */
export const WATCH_INTERVAL_MS = 3_000;

/**
 * The minute's floor, under the watch's key and queue: it never runs beside, or queues beside,
 * the run a sending broadcast re-queues every few seconds.
 */
export const WATCH_BROADCASTS_CRONTAB = `* * * * * watch_broadcasts ?max=1&queue=${BROADCAST_WATCH_QUEUE}&jobKey=${BROADCAST_WATCH_KEY}&jobKeyMode=preserve_run_at`;

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
 * Pauses any sending broadcast whose bounce or complaint rate passed its limit (saying why) and
 * marks broadcasts whose every row has settled as sent. The minute's cron tick is the floor;
 * while any broadcast is still sending, the run queues its successor WATCH_INTERVAL_MS ahead
 * (one keyed job in one queue, so runs never pile up or overlap).
 */
export function watchBroadcastsTask(pool: pg.Pool, thresholds: () => Promise<BroadcastThresholds>, now: () => Date = () => new Date()): Task {
  return async (_payload, helpers) => {
    const limits = await thresholds();
    const sending = new Set<string>();
    for (const health of await sendingBroadcastHealth(pool)) {
      sending.add(health.id);
      const reason = autoPauseReason(health, limits);
      if (reason && (await pauseBroadcast(pool, health.id, reason, null)) !== null) {
        sending.delete(health.id);
        helpers.logger.warn(`broadcast ${health.id} ${reason}`);
      }
    }
    for (const id of await completeFinishedBroadcasts(pool)) sending.delete(id);
    if (sending.size > 0) await queueBroadcastWatch(pool, new Date(now().getTime() + WATCH_INTERVAL_MS));
  };
}
