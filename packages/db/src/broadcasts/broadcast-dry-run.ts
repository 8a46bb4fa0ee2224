import type { Sql } from "../sql.ts";
import { variantThresholds, type AudienceQuery } from "./fan-out.ts";

export interface DryRunRow {
  channel: "push" | "email" | "sms";
  version: number;
  verdict: "send" | "skip" | "defer";
  reason: string | null;
  count: number;
}

export interface DryRunCounts {
  audience: number;
  heldOut: number;
  rows: DryRunRow[];
}

/**
 * What sending now would do, without writing anything: the audience, the holdout, and for every
 * recipient × channel the gates' verdict and reason, grouped by channel, variant, verdict and
 * reason. The holdout and variants use the same hash as the fan-out, so the numbers are the ones
 * the send will see.
 *
 * The gates here are herald.evaluate_gates' ladder written over the audience as a relation
 * (decision 0020): handing a million tuples to that function as arrays cost most of the dry run
 * (building, filling and unnesting four arrays, sorting the answers back by position), and
 * hashing every address for erased people's suppressions cost more. Here each table is joined
 * once, by hash, to the recipients; an address is hashed only when the channel has a hashed
 * suppression at all. `gates-as-a-set.integration.test.ts` holds the two to the same answers on a
 * population seeded to hit every gate, for every category and lane.
 */
export async function broadcastDryRun(
  sql: Sql,
  b: { id: string; holdoutPercent: number; variants: Array<{ version: number; percent: number }>; channels: string[]; category: string; lane: string },
  audience: AudienceQuery,
  now: Date,
  defaultTimezone: string,
): Promise<DryRunCounts> {
  const upTo = variantThresholds(b.variants);
  const n = audience.params.length;
  const p = (k: number) => `$${n + k}`;
  const [id, holdout, versions, thresholds, channels, category, lane, at, zone] = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(p);
  // Only when a channel holds an erased person's suppression (stored as herald.suppression_hash)
  // is each of its addresses hashed to look for it.
  const hashed = (channel: string) =>
    `(SELECT EXISTS (SELECT 1 FROM herald.suppressions WHERE channel = '${channel}' AND address LIKE 'sha256:%'))`;
  const { rows } = await sql.query(
    `WITH aud AS (
       SELECT DISTINCT a.user_id FROM (${audience.sql}) a
     ), bucketed AS MATERIALIZED (
       -- No hashing for what is not asked for (no holdout, a single variant), as the fan-out.
       SELECT aud.user_id,
              ${holdout}::int > 0 AND herald.broadcast_bucket(${id}, 'holdout', aud.user_id) < ${holdout}::int AS held,
              CASE WHEN cardinality(${versions}::int[]) = 1 THEN (${versions}::int[])[1] ELSE
                (SELECT v.version FROM unnest(${versions}::int[], ${thresholds}::int[]) v(version, up_to)
                  WHERE herald.broadcast_bucket(${id}, 'variant', aud.user_id) < v.up_to ORDER BY v.up_to LIMIT 1) END AS version
         FROM aud
     ), cat AS MATERIALIZED (
       SELECT k.key, coalesce(c.mandatory, false) AS mandatory, c.defaults, c.frequency_cap
         FROM (SELECT coalesce((SELECT a.category_key FROM herald.category_aliases a WHERE a.alias = ${category}), ${category}) AS key) k
         LEFT JOIN herald.categories c ON c.key = k.key
     ), r AS (
       SELECT b.user_id, b.version, ch.channel
         FROM bucketed b CROSS JOIN unnest(${channels}::text[]) ch(channel)
        WHERE NOT b.held
     ), dev AS (
       SELECT d.user_id,
              count(*) FILTER (WHERE ds.address IS NULL AND dh.address IS NULL) AS usable,
              min(least(ds.reason, dh.reason)) AS suppressed_reason
         FROM bucketed b
         JOIN herald.devices d ON d.user_id = b.user_id AND d.active
         LEFT JOIN herald.suppressions ds ON ds.channel = 'push' AND ds.address = d.token
         LEFT JOIN herald.suppressions dh ON dh.channel = 'push'
                                         AND dh.address = CASE WHEN ${hashed("push")} THEN herald.suppression_hash('push', d.token) END
        WHERE NOT b.held AND 'push' = ANY (${channels}::text[])
        GROUP BY d.user_id
     ), qh AS (
       -- The most specific of the at most four quiet-hours rules a recipient × channel can match.
       SELECT DISTINCT ON (q.user_id, ch.channel) q.user_id, ch.channel, q.start_time, q.end_time, q.timezone
         FROM cat
         JOIN herald.quiet_hours q ON q.category IN (cat.key, '*')
         JOIN unnest(${channels}::text[]) ch(channel) ON q.channel IN (ch.channel, '*')
        ORDER BY q.user_id, ch.channel, (q.category <> '*') DESC, (q.channel <> '*') DESC
     ), cap AS (
       SELECT nt.user_id, nt.channel, count(*) AS sent_in_window
         FROM cat
         JOIN herald.notifications nt ON cat.frequency_cap IS NOT NULL AND nt.category = cat.key AND nt.channel = ANY (${channels}::text[])
          AND nt.sent_at > ${at}::timestamptz - make_interval(secs => (cat.frequency_cap->>'windowSeconds')::int)
        GROUP BY nt.user_id, nt.channel
     ), facts AS (
       SELECT r.channel, r.version, u.id IS NOT NULL AS user_exists, cat.mandatory, cat.frequency_cap,
              coalesce((cat.defaults ->> r.channel)::boolean, true) AS default_enabled, p.enabled AS pref_enabled,
              CASE r.channel WHEN 'email' THEN u.email WHEN 'sms' THEN u.phone END AS addr,
              -- The address itself first, then its hash (reason is never NULL).
              coalesce(sa.reason, sh.reason) AS suppression_reason,
              coalesce(dev.usable, 0) AS usable_tokens, dev.suppressed_reason AS token_suppression,
              qh.start_time IS NOT NULL AND ${lane}::text <> 'critical' AND (
                SELECT CASE WHEN qh.start_time < qh.end_time THEN l >= qh.start_time AND l < qh.end_time
                            ELSE l >= qh.start_time OR l < qh.end_time END
                  FROM (SELECT (${at}::timestamptz AT TIME ZONE coalesce(qh.timezone, u.timezone, ${zone}::text))::time AS l) lt
              ) AS in_quiet,
              coalesce(cap.sent_in_window, 0) AS sent_in_window
         FROM r CROSS JOIN cat
         LEFT JOIN herald.users u ON u.id = r.user_id
         LEFT JOIN herald.preferences p ON p.user_id = r.user_id AND p.category = cat.key AND p.channel = r.channel
         LEFT JOIN herald.suppressions sa ON r.channel <> 'push' AND sa.channel = r.channel
                                         AND sa.address = CASE r.channel WHEN 'email' THEN u.email WHEN 'sms' THEN u.phone END
         LEFT JOIN herald.suppressions sh ON r.channel <> 'push' AND sh.channel = r.channel
                                         AND sh.address = CASE WHEN (r.channel = 'email' AND ${hashed("email")}) OR (r.channel = 'sms' AND ${hashed("sms")})
                                                               THEN herald.suppression_hash(r.channel, CASE r.channel WHEN 'email' THEN u.email ELSE u.phone END) END
         LEFT JOIN dev ON r.channel = 'push' AND dev.user_id = r.user_id
         LEFT JOIN qh ON qh.user_id = r.user_id AND qh.channel = r.channel
         LEFT JOIN cap ON cap.user_id = r.user_id AND cap.channel = r.channel
     ), decided AS (
       -- herald.evaluate_gates' ladder, in its order.
       SELECT f.channel, f.version, f.frequency_cap,
         CASE
           WHEN NOT f.user_exists THEN 'unreachable:' || CASE f.channel WHEN 'push' THEN 'device' WHEN 'email' THEN 'email' ELSE 'phone' END
           WHEN NOT (f.mandatory OR coalesce(f.pref_enabled, f.default_enabled)) THEN 'category_disabled'
           WHEN f.suppression_reason IS NOT NULL THEN 'suppressed:' || f.suppression_reason
           WHEN f.channel = 'push' AND f.usable_tokens = 0 AND f.token_suppression IS NOT NULL THEN 'suppressed:' || f.token_suppression
           WHEN f.channel = 'push' AND f.usable_tokens = 0 THEN 'unreachable:device'
           WHEN f.channel = 'email' AND f.addr IS NULL THEN 'unreachable:email'
           WHEN f.channel = 'sms' AND f.addr IS NULL THEN 'unreachable:phone'
           WHEN f.in_quiet THEN 'quiet_hours'
           WHEN f.frequency_cap IS NOT NULL AND f.sent_in_window >= (f.frequency_cap->>'max')::int THEN 'frequency_capped'
         END AS reason
         FROM facts f
     )
     SELECT 'total' AS kind, NULL AS channel, NULL::int AS version, NULL AS verdict, NULL AS reason, count(*)::int AS count FROM bucketed
     UNION ALL SELECT 'held', NULL, NULL, NULL, NULL, count(*)::int FROM bucketed WHERE held
     UNION ALL SELECT 'gate', d.channel, d.version,
            CASE WHEN d.reason IS NULL THEN 'send'
                 WHEN d.reason = 'quiet_hours' THEN 'defer'
                 WHEN d.reason = 'frequency_capped' AND d.frequency_cap->>'action' = 'defer' THEN 'defer'
                 ELSE 'skip' END,
            d.reason, count(*)::int
       FROM decided d
      GROUP BY 1, 2, 3, 4, 5`,
    [...audience.params, b.id, Math.round(b.holdoutPercent * 100), b.variants.map((v) => v.version), upTo, b.channels, b.category, b.lane, now, defaultTimezone],
  );
  return {
    audience: rows.find((r) => r.kind === "total")?.count ?? 0,
    heldOut: rows.find((r) => r.kind === "held")?.count ?? 0,
    rows: rows.filter((r) => r.kind === "gate").map(({ channel, version, verdict, reason, count }) => ({ channel, version, verdict, reason, count })),
  };
}
