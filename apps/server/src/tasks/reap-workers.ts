import { reapDeadWorkers, type Sql } from "@herald/db";
import type { Task } from "graphile-worker";
import type { ReapGate } from "../workers/reap-gate.ts";

/** A row in flight this long lost its job with its worker. */
export const STUCK_IN_FLIGHT_MS = 10 * 60_000;

/**
 * Every minute (and when a beat finds a worker silent): free the jobs of workers that stopped
 * beating for `silenceMs`, requeue rows whose job is lost. Not until this process has reached the
 * database for a whole silence (`gate`): right after an outage, every heartbeat looks silent.
 */
export function reapWorkersTask(sql: Sql, silenceMs: number, gate: Pick<ReapGate, "open">): Task {
  return async (_payload, helpers) => {
    if (!gate.open()) return helpers.logger.debug("not reaping: this process has not reached the database for a whole silence yet");
    const { workers, requeued } = await reapDeadWorkers(sql, silenceMs, STUCK_IN_FLIGHT_MS);
    if (workers.length > 0) helpers.logger.warn(`released the jobs of silent workers: ${workers.join(", ")}`);
    if (requeued > 0) helpers.logger.warn(`requeued ${requeued} notification(s) stuck in flight`);
  };
}
