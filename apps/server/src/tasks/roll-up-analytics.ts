import type { Task } from "graphile-worker";
import type pg from "pg";
import { catchUpAnalytics } from "../analytics/catch-up-analytics.ts";

/**
 * Every minute: fold the notification events logged since the last run into the daily rollup.
 * Safe to run twice or to die midway (the mark moves with the counts); a run that hits its
 * budget leaves the rest to the next one.
 */
export function rollUpAnalyticsTask(pool: pg.Pool, timeZone: () => Promise<string>): Task {
  return async (_payload, helpers) => {
    const r = await catchUpAnalytics(pool, { timeZone, budgetMs: 45_000 });
    if (r.built) helpers.logger.info("built the analytics rollup from the whole event log");
    if (!r.caughtUp) helpers.logger.warn(`analytics rollup is behind: ${r.events} events this run, more next minute`);
  };
}
