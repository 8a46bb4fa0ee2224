import type pg from "pg";
import { withTransaction } from "../sql.ts";
import { CREATED_DAY_COUNTERS, KEY_COLUMNS, KEY_NAMES, SEND_DAY_COUNTERS, cohortDay, upsertCounters } from "./rollup-sql.ts";

export interface RebuildResult {
  /** The high-water mark the rebuilt rows stand for: every event id at or below it. */
  lastEventId: string;
  notifications: number;
  rows: number;
}

const zeros = (names: readonly string[]) => names.map((c) => `0 AS ${c}`).join(", ");

/**
 * Recomputes the rollup from the whole event log, set-based, in the given time zone. First a
 * SHARE lock on the log, held only while reading its highest id, waits out every transaction
 * still inserting events: ids at or below that mark are then final, so the rebuild counts
 * exactly them and the incremental rollup resumes after the mark with no gap to chase. The
 * rollup itself is replaced in one transaction, so readers see the old numbers or the new ones.
 */
export async function rebuildAnalytics(pool: pg.Pool, timeZone: string, lockTimeoutMs = 30_000): Promise<RebuildResult> {
  const mark = await withTransaction(pool, async (tx) => {
    await tx.query(`SELECT set_config('lock_timeout', $1, true)`, [`${lockTimeoutMs}ms`]);
    await tx.query("LOCK TABLE herald.notification_events IN SHARE MODE");
    const { rows } = await tx.query<{ mark: string }>("SELECT coalesce(max(id), 0)::text AS mark FROM herald.notification_events");
    return rows[0]!.mark;
  });
  return withTransaction(pool, async (tx) => {
    await tx.query("SELECT 1 FROM herald.analytics_state WHERE id = 1 FOR UPDATE");
    await tx.query("DELETE FROM herald.analytics_daily");
    await tx.query("DELETE FROM herald.analytics_daily_skips");
    await tx.query("DELETE FROM herald.analytics_gaps");
    const { rows } = await tx.query<{ notifications: number; rows: number }>(
      `WITH per_notification AS (
         SELECT e.notification_id,
                bool_or(herald.analytics_metric(e.type, e.detail) = 'skipped') AS skipped,
                ${[...SEND_DAY_COUNTERS, "canceled"].map((c) => `bool_or(herald.analytics_metric(e.type, e.detail) = '${c}') AS ${c}`).join(",\n                ")},
                sum(CASE e.type WHEN 'dead' THEN 1 WHEN 'replayed' THEN -1 ELSE 0 END) AS dead,
                (array_agg(e.detail ->> 'reason' ORDER BY e.id) FILTER (WHERE e.type = 'skipped'))[1] AS skip_reason
           FROM herald.notification_events e
          WHERE e.id <= $1::bigint
          GROUP BY e.notification_id
       ), keyed AS (
         SELECT ${KEY_COLUMNS}, p.*, n.created_at, n.sent_at,
                ${cohortDay("'created'", "$2")} AS created_day, ${cohortDay("'sent'", "$2")} AS send_day
           FROM per_notification p JOIN herald.notifications n ON n.id = p.notification_id
       ), counts AS (
         SELECT created_day AS day, type, channel, template_key, template_version, broadcast_id,
                1 AS created, skipped::int AS skipped, canceled::int AS canceled, dead, ${zeros(SEND_DAY_COUNTERS)}
           FROM keyed
         UNION ALL
         SELECT send_day, type, channel, template_key, template_version, broadcast_id, ${zeros(CREATED_DAY_COUNTERS)},
                ${SEND_DAY_COUNTERS.map((c) => `${c}::int`).join(", ")}
           FROM keyed WHERE sent OR delivered OR failed OR bounced OR opened OR opened_by_proxy OR clicked OR read OR unsubscribed OR complained
       ), counters AS (
         ${upsertCounters("counts")}
         RETURNING 1
       ), skips AS (
         INSERT INTO herald.analytics_daily_skips (${KEY_NAMES}, reason, skipped)
         SELECT created_day, type, channel, template_key, template_version, broadcast_id, coalesce(skip_reason, 'unknown'), count(*)
           FROM keyed WHERE skipped
          GROUP BY created_day, type, channel, template_key, template_version, broadcast_id, coalesce(skip_reason, 'unknown')
       )
       SELECT (SELECT count(*) FROM keyed)::int AS notifications, (SELECT count(*) FROM counters)::int AS rows`,
      [mark, timeZone],
    );
    await tx.query("UPDATE herald.analytics_state SET last_event_id = $1::bigint, time_zone = $2, built_at = now(), rolled_up_at = now() WHERE id = 1", [
      mark,
      timeZone,
    ]);
    return { lastEventId: mark, notifications: rows[0]!.notifications, rows: rows[0]!.rows };
  });
}
