import { rebuildAnalytics, rollUpAnalytics } from "@herald/db";
import type pg from "pg";

export interface CatchUpOptions {
  /** The workspace time zone: the rollup is rebuilt when its days are in another one. */
  timeZone: () => Promise<string>;
  /** Stop starting new batches after this long; the next run goes on from the mark. */
  budgetMs: number;
  batchSize?: number;
  gapHorizonMs?: number;
}

export interface CatchUpResult {
  built: boolean;
  events: number;
  caughtUp: boolean;
  openGaps: number;
}

/** An insert still uncommitted after an hour is taken for rolled back (docs/analytics.md). */
export const GAP_HORIZON_MS = 3_600_000;

/**
 * Brings the rollup up to the end of the event log, batch by batch, each batch its own
 * transaction. The first run on a database, and the first after the workspace time zone
 * changed, builds it set-based instead.
 */
export async function catchUpAnalytics(pool: pg.Pool, options: CatchUpOptions): Promise<CatchUpResult> {
  const started = Date.now();
  const result: CatchUpResult = { built: false, events: 0, caughtUp: false, openGaps: 0 };
  const timeZone = await options.timeZone();
  while (Date.now() - started < options.budgetMs) {
    const step = await rollUpAnalytics(pool, {
      timeZone,
      batchSize: options.batchSize ?? 20_000,
      gapHorizonMs: options.gapHorizonMs ?? GAP_HORIZON_MS,
    });
    if (step.kind === "needs_build") {
      await rebuildAnalytics(pool, timeZone);
      result.built = true;
      continue;
    }
    result.events += step.events;
    result.openGaps = step.openGaps;
    if (step.caughtUp) {
      result.caughtUp = true;
      break;
    }
  }
  return result;
}
