import { pruneExpired } from "@herald/db";
import type { Task } from "graphile-worker";
import type pg from "pg";
import { retentionOptions } from "../lifecycle/retention-policy.ts";

/**
 * Every ten minutes: deletes what is older than the retention setting, batch by batch, each its
 * own transaction, within a time budget (docs/data-lifecycle.md). Notifications whose events the
 * analytics rollup has not read yet wait for it. Safe to stop at any point.
 */
export function pruneExpiredTask(pool: pg.Pool, retentionDays: () => number): Task {
  return async (_payload, helpers) => {
    const report = await pruneExpired(pool, retentionOptions(retentionDays(), new Date(), helpers.abortSignal));
    const deleted = Object.values(report.deleted).reduce((a, b) => a + b, 0);
    if (deleted > 0) helpers.logger.info(`retention pruned ${deleted} row(s): ${JSON.stringify(report.deleted)}`);
    if (report.heldForRollup > 0) helpers.logger.info(`retention kept ${report.heldForRollup} expired notification(s) the analytics rollup has not counted yet`);
    if (!report.finished) helpers.logger.warn("retention ran out of time: the next run goes on");
  };
}
