import { BroadcastScheduleSchema } from "@herald/core";
import { fanOutChunk, findBroadcast, type FanOutJobOptions, markSegmentUsed, queueBroadcastWatch, snapshotBroadcastAudience, transitionBroadcast, type Sql } from "@herald/db";
import type { Task } from "graphile-worker";
import type pg from "pg";
import { z } from "zod";
import type { BroadcastAudience } from "../broadcasts/broadcast-audience.ts";

const PayloadSchema = z.object({ broadcastId: z.string().regex(/^\d{1,18}$/) });

/** Users per fan-out transaction: small enough to commit often and let the pump interleave. */
export const FANOUT_CHUNK_USERS = 5_000;

export interface StartBroadcastDependencies {
  pool: pg.Pool;
  audience: BroadcastAudience;
  defaultTimezone: () => Promise<string>;
  /** The pump's batch size and look-ahead: rows due now get their send jobs with the chunk; null leaves every row to the pump. */
  jobs: FanOutJobOptions | null;
  now?: () => Date;
}

/**
 * Runs at the broadcast's start time (a keyed graphile-worker job, so it survives restarts):
 * snapshots the segment's rule, moves the broadcast to `sending`, and fans out chunk by chunk
 * from the saved cursor until the audience is exhausted or the broadcast is paused or canceled;
 * each chunk commits its rows with their send jobs.
 * A crash mid-way re-runs the job, which resumes at the cursor; dedup keys make any overlap
 * write nothing.
 */
export function startBroadcastTask(deps: StartBroadcastDependencies): Task {
  return async (payload, helpers) => {
    const { broadcastId } = PayloadSchema.parse(payload);
    const sql: Sql = deps.pool;
    const now = deps.now?.() ?? new Date();
    let broadcast = await findBroadcast(sql, broadcastId);
    if (broadcast?.status === "scheduled") {
      const rule = await deps.audience.ruleOf(sql, broadcast.segmentId);
      await snapshotBroadcastAudience(sql, broadcastId, rule);
      if (await transitionBroadcast(sql, broadcastId, ["scheduled"], "sending")) {
        await markSegmentUsed(sql, broadcast.segmentId, now);
        // The watch follows a sending broadcast every few seconds, so its end shows promptly.
        await queueBroadcastWatch(sql, now);
      }
      broadcast = await findBroadcast(sql, broadcastId);
    }
    if (!broadcast || broadcast.status !== "sending" || broadcast.fanoutDoneAt) return;

    const schedule = BroadcastScheduleSchema.parse(broadcast.schedule);
    const timing =
      schedule.kind === "local"
        ? { kind: "local" as const, localDateTime: schedule.localDateTime, defaultTimezone: await deps.defaultTimezone() }
        : { kind: "instant" as const, at: broadcast.startsAt ?? now };
    // Relative rules ("in the last 7 days") are read at the start, so a resumed fan-out selects the same people.
    const audience = await deps.audience.query(sql, broadcast.segmentRule, broadcast.startedAt ?? now);
    for (;;) {
      const outcome = await fanOutChunk(deps.pool, broadcastId, audience, timing, FANOUT_CHUNK_USERS, deps.jobs);
      if (outcome.kind === "stopped") {
        helpers.logger.info(`broadcast ${broadcastId} fan-out stopped: ${outcome.status}`);
        return;
      }
      if (outcome.done) return;
    }
  };
}
