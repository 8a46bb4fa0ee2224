import type { Sql } from "../../src/sql.ts";

/**
 * The rollup's expected rows, aggregated straight from the event log in one query written apart
 * from the rollup's own SQL: per notification and counter, whether any event fed it (dead: dead
 * minus replayed), on the creation day for created/skipped/canceled/dead and the send day for the
 * rest. Keys are `day|type|channel|template|version|broadcast|counter`, zero counts left out.
 */
export async function analyticsFromEventLog(sql: Sql, timeZone: string): Promise<Map<string, number>> {
  const { rows } = await sql.query<{ k: string; n: string }>(
    `WITH classified AS (
       SELECT e.notification_id, e.type,
              CASE WHEN e.type = 'opened' AND e.detail ->> 'prefetch' = 'true' THEN 'opened_by_proxy'
                   WHEN e.type = 'complaint' THEN 'complained'
                   WHEN e.type IN ('skipped', 'sent', 'delivered', 'failed', 'bounced', 'canceled', 'opened', 'clicked', 'read', 'unsubscribed') THEN e.type
              END AS counter
         FROM herald.notification_events e
     ), contributions AS (
       SELECT notification_id, counter, 1 AS n FROM classified WHERE counter IS NOT NULL GROUP BY notification_id, counter
       UNION ALL
       SELECT notification_id, 'created', 1 FROM classified GROUP BY notification_id
       UNION ALL
       SELECT notification_id, 'dead', sum(CASE type WHEN 'dead' THEN 1 ELSE -1 END) FROM classified
        WHERE type IN ('dead', 'replayed') GROUP BY notification_id
     )
     SELECT concat_ws('|',
              ((CASE WHEN c.counter IN ('created', 'skipped', 'canceled', 'dead') THEN n.created_at ELSE coalesce(n.sent_at, n.created_at) END)
                AT TIME ZONE $1)::date,
              n.type, n.channel, coalesce(n.template_key, ''), coalesce(n.template_version, 0), coalesce(n.broadcast_id, 0), c.counter) AS k,
            sum(c.n)::text AS n
       FROM contributions c JOIN herald.notifications n ON n.id = c.notification_id
      GROUP BY 1 HAVING sum(c.n) <> 0`,
    [timeZone],
  );
  return new Map(rows.map((r) => [r.k, Number(r.n)]));
}

/**
 * The skip reasons' expected rows, straight from the event log: each skipped notification once,
 * under the reason of its first skip, on its creation day. Keys are
 * `day|type|channel|template|version|broadcast|reason`.
 */
export async function skipsFromEventLog(sql: Sql, timeZone: string): Promise<Map<string, number>> {
  const { rows } = await sql.query<{ k: string; n: string }>(
    `WITH first_skip AS (
       SELECT DISTINCT ON (e.notification_id) e.notification_id, coalesce(e.detail ->> 'reason', 'unknown') AS reason
         FROM herald.notification_events e WHERE e.type = 'skipped'
        ORDER BY e.notification_id, e.id
     )
     SELECT concat_ws('|', (n.created_at AT TIME ZONE $1)::date, n.type, n.channel, coalesce(n.template_key, ''),
              coalesce(n.template_version, 0), coalesce(n.broadcast_id, 0), s.reason) AS k,
            count(*)::text AS n
       FROM first_skip s JOIN herald.notifications n ON n.id = s.notification_id
      GROUP BY 1`,
    [timeZone],
  );
  return new Map(rows.map((r) => [r.k, Number(r.n)]));
}

/** The rollup's skip reasons in the same shape as skipsFromEventLog. */
export async function skipsFromRollup(sql: Sql): Promise<Map<string, number>> {
  const { rows } = await sql.query(
    "SELECT day::text, type, channel, template_key, template_version, broadcast_id::text, reason, skipped FROM herald.analytics_daily_skips WHERE skipped <> 0",
  );
  return new Map(rows.map((r) => [[r.day, r.type, r.channel, r.template_key, r.template_version, r.broadcast_id, r.reason].join("|"), Number(r.skipped)]));
}

const COUNTERS = ["created", "skipped", "sent", "delivered", "failed", "bounced", "dead", "canceled", "opened", "opened_by_proxy", "clicked", "read", "unsubscribed", "complained"];

/** The rollup's rows in the same shape as analyticsFromEventLog. */
export async function analyticsFromRollup(sql: Sql): Promise<Map<string, number>> {
  const { rows } = await sql.query(`SELECT day::text, type, channel, template_key, template_version, broadcast_id::text, ${COUNTERS.join(", ")} FROM herald.analytics_daily`);
  const out = new Map<string, number>();
  for (const r of rows) {
    for (const c of COUNTERS) {
      const n = Number(r[c]);
      if (n !== 0) out.set([r.day, r.type, r.channel, r.template_key, r.template_version, r.broadcast_id, c].join("|"), n);
    }
  }
  return out;
}
