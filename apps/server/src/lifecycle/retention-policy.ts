import type { PruneOptions } from "@herald/db";

/** Rows looked at per batch: one short transaction each, a few milliseconds of locks. */
export const RETENTION_BATCH_SIZE = 2000;
/** A run stops after this long and leaves the rest to the next one (every 10 minutes). */
export const RETENTION_BUDGET_MS = 30_000;
export const RETENTION_CRONTAB = "*/10 * * * * prune_expired ?max=1";

/** What one prune_expired run deletes: rows older than `retentionDays` before `now`. */
export function retentionOptions(retentionDays: number, now: Date, signal?: AbortSignal): PruneOptions {
  return {
    olderThan: new Date(now.getTime() - retentionDays * 86_400_000),
    batchSize: RETENTION_BATCH_SIZE,
    budgetMs: RETENTION_BUDGET_MS,
    ...(signal ? { signal } : {}),
  };
}
