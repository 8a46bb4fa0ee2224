import { reapDeadWorkers, type Sql } from "@herald/db";
import type { Task } from "graphile-worker";

/** A row in flight this long lost its job with its worker. */
export const STUCK_IN_FLIGHT_MS = 10 * 60_000;

/**
 * Every minute (and when a worker process starts, or its beat finds a worker silent): free the
 * jobs of workers that stopped beating for `silenceMs`, requeue rows whose job is lost.
 */
export function reapWorkersTask(sql: Sql, silenceMs: number): Task {
  return async (_payload, helpers) => {
    const { workers, requeued } = await reapDeadWorkers(sql, silenceMs, STUCK_IN_FLIGHT_MS);
    if (workers.length > 0) helpers.logger.warn(`released the jobs of silent workers: ${workers.join(", ")}`);
    if (requeued > 0) helpers.logger.warn(`requeued ${requeued} notification(s) stuck in flight`);
  };
}
