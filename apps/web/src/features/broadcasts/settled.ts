import type { Funnel } from "./broadcast-types.ts";

/** Rows that will not change any more: every targeted row that is no longer pending (sent, failed, skipped or canceled). */
export function settledOf(f: Funnel): number {
  return Math.max(0, f.targeted - f.pending);
}
