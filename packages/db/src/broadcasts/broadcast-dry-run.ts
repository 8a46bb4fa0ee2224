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
 * recipient × channel the verdict of herald.evaluate_gates — the same function every real send
 * calls — grouped by channel, variant, verdict and reason. The holdout and variants use the
 * same hash as the fan-out, so the numbers are the ones the send will see.
 *
 * The whole audience goes to the gates in one call (herald.gate_verdict_counts), planned with
 * its real size so the gates hash-join instead of probing a million times (decision 0015).
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
  const { rows } = await sql.query(
    `WITH aud AS (
       SELECT DISTINCT a.user_id FROM (${audience.sql}) a
     ), bucketed AS MATERIALIZED (
       -- No hashing for what is not asked for (no holdout, a single variant), as the fan-out.
       SELECT aud.user_id,
              ${p(2)}::int > 0 AND herald.broadcast_bucket(${p(1)}, 'holdout', aud.user_id) < ${p(2)}::int AS held,
              CASE WHEN cardinality(${p(3)}::int[]) = 1 THEN (${p(3)}::int[])[1] ELSE
                (SELECT v.version FROM unnest(${p(3)}::int[], ${p(4)}::int[]) v(version, up_to)
                  WHERE herald.broadcast_bucket(${p(1)}, 'variant', aud.user_id) < v.up_to ORDER BY v.up_to LIMIT 1) END AS version
         FROM aud
     ), t AS (
       -- In no particular order: the three arrays only have to agree, which aggregates of one
       -- scan do, and three sorts of a million rows were a second of the dry run.
       SELECT coalesce(array_agg(b.user_id), '{}') AS users,
              coalesce(array_agg(ch), '{}') AS chans,
              coalesce(array_agg(b.version), '{}') AS versions
         FROM bucketed b CROSS JOIN unnest(${p(5)}::text[]) ch
        WHERE NOT b.held
     )
     SELECT 'total' AS kind, NULL AS channel, NULL::int AS version, NULL AS verdict, NULL AS reason, count(*)::int AS count FROM bucketed
     UNION ALL SELECT 'held', NULL, NULL, NULL, NULL, count(*)::int FROM bucketed WHERE held
     UNION ALL SELECT 'gate', g.channel, g.version, g.verdict, g.reason, g.count::int
       FROM t CROSS JOIN LATERAL herald.gate_verdict_counts(t.users, t.chans, t.versions, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}) g`,
    [...audience.params, b.id, Math.round(b.holdoutPercent * 100), b.variants.map((v) => v.version), upTo, b.channels, b.category, b.lane, now, defaultTimezone],
  );
  return {
    audience: rows.find((r) => r.kind === "total")?.count ?? 0,
    heldOut: rows.find((r) => r.kind === "held")?.count ?? 0,
    rows: rows.filter((r) => r.kind === "gate").map(({ channel, version, verdict, reason, count }) => ({ channel, version, verdict, reason, count })),
  };
}
