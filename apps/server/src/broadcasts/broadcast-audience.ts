import type { AudienceQuery, Sql } from "@herald/db";

/**
 * Turns a segment's rule tree into the query the fan-out and the dry run select user ids from.
 * One implementation (the segment compiler), so a dry run counts exactly whom a send reaches.
 */
export interface BroadcastAudience {
  /** The rule tree of a segment as it is now (what sending snapshots), or null when it is gone. */
  ruleOf(sql: Sql, segmentId: string): Promise<unknown | null>;
  query(sql: Sql, rule: unknown, now: Date): Promise<AudienceQuery>;
}
