import type pg from "pg";
import { withTransaction } from "../sql.ts";
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
 * (decision 0020), and only over the recipients some fact could turn away (decision 0021): an
 * opt-out or preference row, a suppressed or missing address, no usable device, a quiet-hours
 * rule, a frequency cap's count, or a category off by default. Everyone else passes every gate,
 * so the dry run counts them as sent without joining them to anything: at a million users the
 * ladder runs for the few percent with an exception, not for everyone. An address is hashed only
 * when its channel holds a hashed suppression at all. `gates-as-a-set.integration.test.ts` holds
 * this to herald.evaluate_gates' answers on a population seeded to hit every gate, for every
 * category and lane; leaving any source of candidates out fails it.
 *
 * One read-only transaction with JIT off: the planner cannot size the CTEs, so its cost estimate
 * runs to billions and Postgres compiled the statement with LLVM (1.6 s of a 3.5 s dry run at a
 * million users) to save a fraction of that.
 */
export async function broadcastDryRun(
  pool: pg.Pool,
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
  const { rows } = await withTransaction(pool, async (client) => {
    await client.query("SET TRANSACTION READ ONLY");
    await client.query("SET LOCAL jit = off");
    return client.query(
    `WITH bucketed AS MATERIALIZED (
       -- No hashing for what is not asked for (no holdout, a single variant), as the fan-out.
       SELECT a.user_id,
              ${holdout}::int > 0 AND herald.broadcast_bucket(${id}, 'holdout', a.user_id) < ${holdout}::int AS held,
              CASE WHEN cardinality(${versions}::int[]) = 1 THEN (${versions}::int[])[1] ELSE
                (SELECT v.version FROM unnest(${versions}::int[], ${thresholds}::int[]) v(version, up_to)
                  WHERE herald.broadcast_bucket(${id}, 'variant', a.user_id) < v.up_to ORDER BY v.up_to LIMIT 1) END AS version
         FROM (${audience.sql}) a
     ), cat AS MATERIALIZED (
       SELECT k.key, coalesce(c.mandatory, false) AS mandatory, c.defaults, c.frequency_cap
         FROM (SELECT coalesce((SELECT a.category_key FROM herald.category_aliases a WHERE a.alias = ${category}), ${category}) AS key) k
         LEFT JOIN herald.categories c ON c.key = k.key
     ), chans AS MATERIALIZED (
       SELECT ch.channel, NOT cat.mandatory AND NOT coalesce((cat.defaults ->> ch.channel)::boolean, true) AS off_by_default
         FROM unnest(${channels}::text[]) ch(channel) CROSS JOIN cat
     ), cap AS (
       SELECT nt.user_id, nt.channel, count(*) AS sent_in_window
         FROM cat
         JOIN herald.notifications nt ON cat.frequency_cap IS NOT NULL AND nt.category = cat.key AND nt.channel = ANY (${channels}::text[])
          AND nt.sent_at > ${at}::timestamptz - make_interval(secs => (cat.frequency_cap->>'windowSeconds')::int)
        GROUP BY nt.user_id, nt.channel
     ), candidates AS (
       -- Every recipient × channel that some fact could turn away. A recipient with none of these
       -- facts passes every gate, so only these go down the ladder; the rest are counted as sent.
       SELECT DISTINCT x.user_id, x.channel FROM (
         SELECT b.user_id, ch.channel FROM chans ch JOIN bucketed b ON ch.off_by_default
         UNION ALL
         SELECT p.user_id, p.channel FROM cat JOIN herald.preferences p ON p.category = cat.key JOIN chans ch ON ch.channel = p.channel
         UNION ALL
         SELECT q.user_id, ch.channel FROM cat JOIN herald.quiet_hours q ON q.category IN (cat.key, '*') JOIN chans ch ON q.channel IN (ch.channel, '*')
         UNION ALL
         SELECT cap.user_id, cap.channel FROM cap
         UNION ALL
         SELECT b.user_id, 'email' FROM bucketed b JOIN herald.users u ON u.id = b.user_id
          WHERE 'email' = ANY (${channels}::text[])
            AND (u.email IS NULL OR u.email IN (SELECT s.address FROM herald.suppressions s WHERE s.channel = 'email')
                 OR (${hashed("email")} AND herald.suppression_hash('email', u.email) IN (SELECT s.address FROM herald.suppressions s WHERE s.channel = 'email')))
         UNION ALL
         SELECT b.user_id, 'sms' FROM bucketed b JOIN herald.users u ON u.id = b.user_id
          WHERE 'sms' = ANY (${channels}::text[])
            AND (u.phone IS NULL OR u.phone IN (SELECT s.address FROM herald.suppressions s WHERE s.channel = 'sms')
                 OR (${hashed("sms")} AND herald.suppression_hash('sms', u.phone) IN (SELECT s.address FROM herald.suppressions s WHERE s.channel = 'sms')))
         UNION ALL
         SELECT b.user_id, 'push' FROM bucketed b
          WHERE 'push' = ANY (${channels}::text[]) AND NOT EXISTS (SELECT 1 FROM herald.devices d WHERE d.user_id = b.user_id AND d.active)
         UNION ALL
         SELECT d.user_id, 'push' FROM herald.devices d
          WHERE 'push' = ANY (${channels}::text[]) AND d.active
            AND (d.token IN (SELECT s.address FROM herald.suppressions s WHERE s.channel = 'push')
                 OR (${hashed("push")} AND herald.suppression_hash('push', d.token) IN (SELECT s.address FROM herald.suppressions s WHERE s.channel = 'push')))
       ) x
     ), r AS (
       SELECT b.user_id, b.version, c.channel
         FROM candidates c JOIN bucketed b ON b.user_id = c.user_id
        WHERE NOT b.held
     ), dev AS (
       SELECT d.user_id,
              count(*) FILTER (WHERE ds.address IS NULL AND dh.address IS NULL) AS usable,
              min(least(ds.reason, dh.reason)) AS suppressed_reason
         FROM r
         JOIN herald.devices d ON d.user_id = r.user_id AND d.active
         LEFT JOIN herald.suppressions ds ON ds.channel = 'push' AND ds.address = d.token
         LEFT JOIN herald.suppressions dh ON dh.channel = 'push'
                                         AND dh.address = CASE WHEN ${hashed("push")} THEN herald.suppression_hash('push', d.token) END
        WHERE r.channel = 'push'
        GROUP BY d.user_id
     ), qh AS (
       -- The most specific of the at most four quiet-hours rules a recipient × channel can match.
       SELECT DISTINCT ON (q.user_id, ch.channel) q.user_id, ch.channel, q.start_time, q.end_time, q.timezone
         FROM cat
         JOIN herald.quiet_hours q ON q.category IN (cat.key, '*')
         JOIN chans ch ON q.channel IN (ch.channel, '*')
        ORDER BY q.user_id, ch.channel, (q.category <> '*') DESC, (q.channel <> '*') DESC
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
     ), turned AS (
       SELECT d.channel, d.version,
              CASE WHEN d.reason = 'quiet_hours' THEN 'defer'
                   WHEN d.reason = 'frequency_capped' AND d.frequency_cap->>'action' = 'defer' THEN 'defer'
                   ELSE 'skip' END AS verdict,
              d.reason, count(*)::int AS count
         FROM decided d WHERE d.reason IS NOT NULL
        GROUP BY 1, 2, 3, 4
     ), per_version AS (
       SELECT b.version, count(*) FILTER (WHERE NOT b.held)::int AS treated, count(*) FILTER (WHERE b.held)::int AS held
         FROM bucketed b GROUP BY b.version
     ), sent AS (
       -- Everyone treated on a channel, less those the ladder turned away.
       SELECT ch.channel, v.version, v.treated - coalesce((SELECT sum(t.count) FROM turned t WHERE t.channel = ch.channel AND t.version = v.version), 0)::int AS count
         FROM per_version v CROSS JOIN chans ch
     )
     SELECT 'total' AS kind, NULL AS channel, NULL::int AS version, NULL AS verdict, NULL AS reason, coalesce(sum(treated + held), 0)::int AS count FROM per_version
     UNION ALL SELECT 'held', NULL, NULL, NULL, NULL, coalesce(sum(held), 0)::int FROM per_version
     UNION ALL SELECT 'gate', t.channel, t.version, t.verdict, t.reason, t.count FROM turned t
     UNION ALL SELECT 'gate', s.channel, s.version, 'send', NULL, s.count FROM sent s WHERE s.count > 0`,
    [...audience.params, b.id, Math.round(b.holdoutPercent * 100), b.variants.map((v) => v.version), upTo, b.channels, b.category, b.lane, now, defaultTimezone],
  );
  });
  return {
    audience: rows.find((r) => r.kind === "total")?.count ?? 0,
    heldOut: rows.find((r) => r.kind === "held")?.count ?? 0,
    rows: rows.filter((r) => r.kind === "gate").map(({ channel, version, verdict, reason, count }) => ({ channel, version, verdict, reason, count })),
  };
}
