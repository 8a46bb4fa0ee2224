import type { Sql } from "../sql.ts";
import { ALL_COUNTERS } from "./rollup-sql.ts";

/** Which rollup rows to add up: days inclusive (YYYY-MM-DD, in the rollup's time zone), the rest exact. */
export interface AnalyticsFilter {
  from: string;
  to: string;
  channel: string | null;
  type: string | null;
  broadcastId: string | null;
  templateKey: string | null;
  templateVersion: number | null;
}

/** How to split the sums: one row per channel, per day, per ISO week (Monday), per broadcast, per template version. */
export type AnalyticsGrouping = "channel" | "day" | "week" | "broadcast" | "template_version";

export type AnalyticsCounters = Record<(typeof ALL_COUNTERS)[number], number>;

export interface AnalyticsGroup {
  /** The channel, the bucket's first day, the broadcast id, or `templateKey@version`. */
  key: string;
  /** A broadcast's name; null for the other groupings. */
  label: string | null;
  counters: AnalyticsCounters;
}

// Fixed fragments per grouping: the only SQL a caller chooses between, never composes.
const GROUPINGS: Record<AnalyticsGrouping, { key: string; label: string; join: string }> = {
  channel: { key: "a.channel", label: "NULL::text", join: "" },
  day: { key: "a.day::text", label: "NULL::text", join: "" },
  week: { key: "date_trunc('week', a.day)::date::text", label: "NULL::text", join: "" },
  broadcast: { key: "a.broadcast_id::text", label: "b.name", join: "JOIN herald.broadcasts b ON b.id = a.broadcast_id" },
  template_version: { key: "a.template_key || '@' || a.template_version", label: "NULL::text", join: "" },
};

const SUMS = ALL_COUNTERS.map((c) => `sum(a.${c})::text AS ${c}`).join(", ");

const WHERE = `a.day BETWEEN $1::date AND $2::date
  AND ($3::text IS NULL OR a.channel = $3) AND ($4::text IS NULL OR a.type = $4)
  AND ($5::bigint IS NULL OR a.broadcast_id = $5) AND ($6::text IS NULL OR a.template_key = $6)
  AND ($7::int IS NULL OR a.template_version = $7)`;

function params(f: AnalyticsFilter): unknown[] {
  return [f.from, f.to, f.channel, f.type, f.broadcastId, f.templateKey, f.templateVersion];
}

/**
 * The rollup's counters summed over the filter, one row per group, ordered by key. Rows of
 * notifications outside any broadcast (broadcast 0) or template (key '') are left out of those
 * two groupings.
 */
export async function sumAnalytics(sql: Sql, filter: AnalyticsFilter, grouping: AnalyticsGrouping): Promise<AnalyticsGroup[]> {
  const g = GROUPINGS[grouping];
  const scope = grouping === "broadcast" ? "AND a.broadcast_id <> 0" : grouping === "template_version" ? "AND a.template_key <> ''" : "";
  const { rows } = await sql.query<Record<string, string | null>>(
    `SELECT ${g.key} AS key, ${g.label} AS label, ${SUMS}
       FROM herald.analytics_daily a ${g.join}
      WHERE ${WHERE} ${scope}
      GROUP BY 1, 2 ORDER BY 1`,
    params(filter),
  );
  return rows.map((r) => ({
    key: r.key!,
    label: r.label ?? null,
    counters: Object.fromEntries(ALL_COUNTERS.map((c) => [c, Number(r[c])])) as AnalyticsCounters,
  }));
}

/** Skipped notifications over the filter by reason code, most frequent first. */
export async function sumSkipReasons(sql: Sql, filter: AnalyticsFilter): Promise<Array<{ reason: string; count: number }>> {
  const { rows } = await sql.query<{ reason: string; count: string }>(
    `SELECT a.reason, sum(a.skipped)::text AS count FROM herald.analytics_daily_skips a
      WHERE ${WHERE} GROUP BY a.reason ORDER BY sum(a.skipped) DESC, a.reason`,
    params(filter),
  );
  return rows.map((r) => ({ reason: r.reason, count: Number(r.count) }));
}

export interface AnalyticsFreshness {
  timeZone: string;
  lastEventId: string;
  builtAt: Date | null;
  rolledUpAt: Date | null;
}

/** How current the rollup is, and the time zone its days are in. */
export async function getAnalyticsFreshness(sql: Sql): Promise<AnalyticsFreshness> {
  const { rows } = await sql.query(
    "SELECT time_zone, last_event_id::text, built_at, rolled_up_at FROM herald.analytics_state WHERE id = 1",
  );
  const r = rows[0];
  return { timeZone: r.time_zone, lastEventId: r.last_event_id, builtAt: r.built_at, rolledUpAt: r.rolled_up_at };
}
