import type pg from "pg";
import { withTransaction } from "../sql.ts";
import { ALL_COUNTERS, KEY_COLUMNS, KEY_NAMES, cohortDay, upsertCounters } from "./rollup-sql.ts";

export interface RollUpOptions {
  /** The workspace time zone: when the rollup's days are in another one, it must be rebuilt. */
  timeZone: string;
  /** At most this many new events per call; the caller loops while `caughtUp` is false. */
  batchSize: number;
  /** An event id still unseen this long after it was passed over is taken for a rolled-back insert. */
  gapHorizonMs: number;
}

export type RollUpResult =
  /** No set-based build has run yet, or it counted days in another time zone. */
  | { kind: "needs_build"; reason: "never_built" | "time_zone_changed" }
  | { kind: "rolled_up"; events: number; lastEventId: string; openGaps: number; caughtUp: boolean };

const COUNT_METRICS = ALL_COUNTERS.filter((c) => c !== "dead")
  .map((c) => `count(*) FILTER (WHERE metric = '${c}') AS ${c}`)
  .join(",\n           ");

/**
 * The incremental step: the next events after the high-water mark (plus any that were passed
 * over while their transaction was still open) become increments on the daily rows, and the mark
 * moves, all in one transaction, after locking the state row: a second run waits and then finds
 * nothing new, a crash rolls back counts and mark together. Each counter counts a notification
 * once — a second open, a repeated webhook add nothing — except `dead`, which a replay takes
 * back. Reads the log by primary key and the notification index only, never a whole table.
 */
export async function rollUpAnalytics(pool: pg.Pool, options: RollUpOptions): Promise<RollUpResult> {
  return withTransaction(pool, async (tx) => {
    const { rows: states } = await tx.query<{ last_event_id: string; time_zone: string; built: boolean }>(
      "SELECT last_event_id::text, time_zone, built_at IS NOT NULL AS built FROM herald.analytics_state WHERE id = 1 FOR UPDATE",
    );
    const state = states[0];
    if (!state?.built) return { kind: "needs_build", reason: "never_built" };
    if (state.time_zone !== options.timeZone) return { kind: "needs_build", reason: "time_zone_changed" };
    await tx.query("DELETE FROM herald.analytics_gaps WHERE seen_at < now() - make_interval(secs => $1::float8 / 1000)", [options.gapHorizonMs]);
    const { rows } = await tx.query<{ last_event_id: string; events: number; open_gaps: number; fresh: number }>(
      {
        name: "herald_roll_up_analytics",
        text: `WITH fresh AS (
         SELECT e.id, e.notification_id, e.type, e.detail FROM herald.notification_events e
          WHERE e.id > $1::bigint ORDER BY e.id LIMIT $2
       ), refound AS (
         SELECT e.id, e.notification_id, e.type, e.detail
           FROM herald.analytics_gaps g JOIN herald.notification_events e ON e.id = g.event_id
       ), batch AS (
         SELECT * FROM fresh UNION ALL SELECT * FROM refound
       ), fed AS (
         SELECT b.id, b.notification_id, m.metric, b.detail
           FROM batch b
          CROSS JOIN LATERAL (VALUES ('created'), (herald.analytics_metric(b.type, b.detail)),
                                     (CASE WHEN b.type IN ('dead', 'replayed') THEN b.type END)) AS m(metric)
          WHERE m.metric IS NOT NULL
       ), firsts AS (
         SELECT DISTINCT ON (f.notification_id, f.metric) f.*
           FROM fed f WHERE f.metric NOT IN ('dead', 'replayed')
          ORDER BY f.notification_id, f.metric, f.id
       ), counted AS (
         -- Rolled up already: at or below the mark and not a gap (as of this statement's start).
         SELECT f.notification_id, f.metric, f.detail FROM firsts f
          WHERE NOT EXISTS (
            SELECT 1 FROM herald.notification_events p
             WHERE p.notification_id = f.notification_id AND p.id <= $1::bigint
               AND (f.metric = 'created' OR herald.analytics_metric(p.type, p.detail) = f.metric)
               AND NOT EXISTS (SELECT 1 FROM herald.analytics_gaps g WHERE g.event_id = p.id))
         UNION ALL
         SELECT f.notification_id, f.metric, f.detail FROM fed f WHERE f.metric IN ('dead', 'replayed')
       ), keyed AS (
         SELECT ${cohortDay("c.metric", "$3")} AS day, ${KEY_COLUMNS}, c.metric, c.detail ->> 'reason' AS reason
           FROM counted c JOIN herald.notifications n ON n.id = c.notification_id
       ), counts AS (
         SELECT ${KEY_NAMES},
           ${COUNT_METRICS},
           count(*) FILTER (WHERE metric = 'dead') - count(*) FILTER (WHERE metric = 'replayed') AS dead
           FROM keyed GROUP BY ${KEY_NAMES}
       ), counters AS (
         ${upsertCounters("counts")}
       ), skips AS (
         INSERT INTO herald.analytics_daily_skips (${KEY_NAMES}, reason, skipped)
         SELECT ${KEY_NAMES}, coalesce(reason, 'unknown'), count(*) FROM keyed WHERE metric = 'skipped'
          GROUP BY ${KEY_NAMES}, coalesce(reason, 'unknown')
         ON CONFLICT (${KEY_NAMES}, reason) DO UPDATE SET skipped = herald.analytics_daily_skips.skipped + excluded.skipped
       ), passed_over AS (
         INSERT INTO herald.analytics_gaps (event_id)
         SELECT s.id FROM generate_series($1::bigint + 1, (SELECT max(id) FROM fresh)) AS s(id)
          WHERE NOT EXISTS (SELECT 1 FROM fresh f WHERE f.id = s.id)
         ON CONFLICT (event_id) DO NOTHING
         RETURNING 1
       ), filled AS (
         DELETE FROM herald.analytics_gaps g USING refound r WHERE g.event_id = r.id RETURNING 1
       ), moved AS (
         -- A run that finds nothing writes nothing.
         UPDATE herald.analytics_state SET last_event_id = coalesce((SELECT max(id) FROM fresh), last_event_id), rolled_up_at = now()
          WHERE id = 1 AND EXISTS (SELECT 1 FROM batch)
       )
       SELECT coalesce((SELECT max(id) FROM fresh), $1::bigint)::text AS last_event_id, (SELECT count(*) FROM batch)::int AS events,
         (SELECT count(*) FROM fresh)::int AS fresh,
         ((SELECT count(*) FROM herald.analytics_gaps) + (SELECT count(*) FROM passed_over) - (SELECT count(*) FROM filled))::int AS open_gaps`,
        values: [state.last_event_id, options.batchSize, state.time_zone],
      },
    );
    const r = rows[0]!;
    return { kind: "rolled_up", events: r.events, lastEventId: r.last_event_id, openGaps: r.open_gaps, caughtUp: r.fresh < options.batchSize };
  });
}
