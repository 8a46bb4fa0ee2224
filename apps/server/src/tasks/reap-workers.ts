import { reapDeadWorkers, type Sql } from "@herald/db";
import type { Task } from "graphile-worker";

/** Silence after which a worker counts as dead; heartbeats are every 10 s. */
export const WORKER_SILENCE_MS = 45_000;
/** A row in flight this long lost its job with its worker. */
export const STUCK_IN_FLIGHT_MS = 10 * 60_000;

/** Every minute: free the jobs of workers that stopped beating, requeue rows whose job is lost. */
export function reapWorkersTask(sql: Sql): Task {
  return async (_payload, helpers) => {
    const { workers, requeued } = await reapDeadWorkers(sql, WORKER_SILENCE_MS, STUCK_IN_FLIGHT_MS);
    if (workers.length > 0) helpers.logger.warn(`released the jobs of silent workers: ${workers.join(", ")}`);
    if (requeued > 0) helpers.logger.warn(`requeued ${requeued} notification(s) stuck in flight`);
  };
}
