/**
 * SQL fragments the incremental rollup and the rebuild share, so that both put every counter on
 * the same row. Counters up to the send (created, skipped, canceled, dead) belong to the day the
 * notification was created; the send and everything after it (delivered, opened, clicked …) to
 * the day it was first sent: an open three days later still counts toward its send day.
 */

/** The counters of herald.analytics_daily fed by herald.analytics_metric, in column order. */
export const SEND_DAY_COUNTERS = [
  "sent",
  "delivered",
  "failed",
  "bounced",
  "opened",
  "opened_by_proxy",
  "clicked",
  "read",
  "unsubscribed",
  "complained",
] as const;

export const CREATED_DAY_COUNTERS = ["created", "skipped", "canceled", "dead"] as const;

export const ALL_COUNTERS = [...CREATED_DAY_COUNTERS, ...SEND_DAY_COUNTERS] as const;

/** The day (in the time zone bound as `tz`) a metric of notification `n` counts toward. */
export function cohortDay(metric: string, tz: string): string {
  return `(CASE WHEN ${metric} IN ('created', 'skipped', 'canceled', 'dead', 'replayed') THEN n.created_at
                ELSE coalesce(n.sent_at, n.created_at) END AT TIME ZONE ${tz})::date`;
}

/** The dimension columns of a rollup row, read from notification `n`. */
export const KEY_COLUMNS = `n.type, n.channel, coalesce(n.template_key, '') AS template_key,
  coalesce(n.template_version, 0) AS template_version, coalesce(n.broadcast_id, 0) AS broadcast_id`;

export const KEY_NAMES = "day, type, channel, template_key, template_version, broadcast_id";

/** Adds a batch's counts (a relation `c` with KEY_NAMES and every counter) onto the rollup. */
export function upsertCounters(source: string): string {
  return `INSERT INTO herald.analytics_daily (${KEY_NAMES}, ${ALL_COUNTERS.join(", ")})
    SELECT ${KEY_NAMES}, ${ALL_COUNTERS.map((c) => `sum(${c})`).join(", ")} FROM ${source} GROUP BY ${KEY_NAMES}
    ON CONFLICT (${KEY_NAMES}) DO UPDATE SET
    ${ALL_COUNTERS.map((c) => `${c} = herald.analytics_daily.${c} + excluded.${c}`).join(",\n    ")}`;
}
