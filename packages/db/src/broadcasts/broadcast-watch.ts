import type { Sql } from "../sql.ts";

/** The watch's queue and job key: one named queue runs one job at a time, on any worker. */
export const BROADCAST_WATCH_QUEUE = "watch_broadcasts";
export const BROADCAST_WATCH_KEY = "watch_broadcasts";

/**
 * Queues the broadcast watch to run at `runAt`, under one job key in one queue: however often it
 * is asked for (a kick when sending starts, the watch re-queueing itself, the minute's cron tick)
 * at most one watch waits and at most one runs. `preserve_run_at` keeps a waiting job's time, so
 * repeated kicks cannot push it back; a job already running has its key cleared by
 * graphile-worker, so a run can queue its own successor.
 */
export async function queueBroadcastWatch(sql: Sql, runAt: Date): Promise<void> {
  await sql.query(
    `SELECT graphile_worker.add_job('watch_broadcasts', '{}'::json, queue_name := $1, run_at := $2, job_key := $3,
                                    job_key_mode := 'preserve_run_at', max_attempts := 5)`,
    [BROADCAST_WATCH_QUEUE, runAt, BROADCAST_WATCH_KEY],
  );
}
