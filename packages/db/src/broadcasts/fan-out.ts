import type pg from "pg";
import { withTransaction } from "../sql.ts";

/**
 * A query whose rows are the audience's `user_id`s, with its own $1..$n parameters: distinct ids
 * of `herald.users` rows, read in the statement that embeds it (the segment compiler selects
 * `u.id` from `herald.users u`). The dry run counts on both.
 */
export interface AudienceQuery {
  sql: string;
  params: unknown[];
}

/**
 * Each variant's upper bound on the 0..9999 bucket scale, cumulative: [50, 50] % → [5000, 10000].
 * A user's variant is the first whose bound exceeds their bucket, in fan-out and dry run alike.
 */
export function variantThresholds(variants: ReadonlyArray<{ percent: number }>): number[] {
  let cumulative = 0;
  return variants.map((v) => (cumulative += v.percent * 100));
}

export type FanOutChunkOutcome =
  | { kind: "chunk"; users: number; created: number; heldOut: number; jobs: number; done: boolean }
  /** The broadcast left `sending` (paused or canceled) before this chunk: nothing was written. */
  | { kind: "stopped"; status: string };

/** When each recipient's row becomes due. */
export type FanOutTiming =
  | { kind: "instant"; at: Date }
  /** A wall-clock time in each recipient's zone (the default zone for those without one). */
  | { kind: "local"; localDateTime: string; defaultTimezone: string };

/** How the chunk turns its rows into send jobs: the same shape the pump gives them. */
export interface FanOutJobOptions {
  /** Notifications per graphile-worker job (HERALD_BATCH_SIZE). */
  batchSize: number;
  /** Rows due within this many milliseconds get their job now, with run_at = next_attempt_at. */
  lookaheadMs: number;
}

/**
 * One chunk of a broadcast's fan-out, in one transaction: the next `chunkSize` audience members
 * by user id after the saved cursor, split into the holdout (recorded, not sent) and variants by
 * a stable hash, written as notification rows with dedup key broadcast:<id>:<user>:<channel> —
 * so a re-run after a crash, or a duplicate job, writes nothing twice. No per-row "created" log
 * entry: the row's broadcast_id and created_at say as much, at half the writes. The broadcast's row is
 * locked first: a pause or cancel either happens before the chunk (which then writes nothing)
 * or after it commits.
 *
 * Rows already due (within the look-ahead) are inserted with job_queued_at set and get their
 * send jobs (bulk or critical priority, up to `batchSize` ids each) from graphile_worker.add_jobs
 * in the same statement, so they never pass through the pump: its UPDATE of every row cost more
 * than the insert itself (decision 0016). A row whose insert was a no-op (a re-run) gets no
 * second job. Rows due later — local-time schedules, throttled broadcasts — stay for the pump.
 */
export async function fanOutChunk(
  pool: pg.Pool,
  broadcastId: string,
  audience: AudienceQuery,
  timing: FanOutTiming,
  chunkSize: number,
  /** null: every row waits for the pump (the demo, which sends its rows itself, queues no jobs). */
  jobs: FanOutJobOptions | null,
): Promise<FanOutChunkOutcome> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query(
      `SELECT status, fanout_after_user, targeted, holdout_percent::float8 AS holdout, variants, channels, category, lane,
              template_key, data, throttle_per_minute
         FROM herald.broadcasts WHERE id = $1 FOR UPDATE`,
      [broadcastId],
    );
    const b = rows[0];
    if (!b) return { kind: "stopped", status: "missing" };
    if (b.status !== "sending") return { kind: "stopped", status: b.status };

    const variants = b.variants as Array<{ version: number; percent: number }>;
    const upTo = variantThresholds(variants);
    const n = audience.params.length;
    const p = (k: number) => `$${n + k}`;
    // One statement text for both timings (each parameter always used, always as text): a zone
    // already past the local time gets its rows due now.
    const timingSql = `greatest(now(), CASE WHEN ${p(14)}::text IS NULL THEN ${p(13)}::text::timestamptz
      ELSE herald.local_to_instant(${p(13)}::text::timestamp, coalesce(t.timezone, ${p(14)}::text)) END)`;
    const { rows: result } = await client.query(
      `WITH seg AS (
         SELECT a.user_id FROM (${audience.sql}) a WHERE a.user_id > ${p(1)} ORDER BY a.user_id LIMIT ${p(2)}
       ), bucketed AS (
         -- No hashing for what is not asked for: no holdout, or a single variant.
         SELECT seg.user_id,
                ${p(4)}::int > 0 AND herald.broadcast_bucket(${p(3)}, 'holdout', seg.user_id) < ${p(4)}::int AS held,
                CASE WHEN cardinality(${p(5)}::int[]) = 1 THEN 0 ELSE herald.broadcast_bucket(${p(3)}, 'variant', seg.user_id) END AS variant_bucket
           FROM seg
       ), holdouts AS (
         INSERT INTO herald.broadcast_holdouts (broadcast_id, user_id)
         SELECT ${p(3)}, b.user_id FROM bucketed b WHERE b.held
         ON CONFLICT DO NOTHING RETURNING 1
       ), targets AS (
         SELECT b.user_id, u.locale, u.timezone, ch.channel,
                (SELECT v.version FROM unnest(${p(5)}::int[], ${p(6)}::int[]) v(version, up_to)
                  WHERE b.variant_bucket < v.up_to ORDER BY v.up_to LIMIT 1) AS version,
                row_number() OVER (ORDER BY b.user_id, ch.channel) AS rn
           FROM bucketed b
           JOIN herald.users u ON u.id = b.user_id
           CROSS JOIN unnest(${p(7)}::text[]) ch(channel)
          WHERE NOT b.held
       ), timed AS (
         SELECT t.*,
                -- A throttle spreads the rows over minutes by their position in the whole broadcast.
                ${timingSql} + CASE WHEN ${p(12)}::int IS NULL THEN interval '0'
                                    ELSE ((${p(15)}::int + t.rn - 1) / ${p(12)}::int) * interval '1 minute' END AS due_at
           FROM targets t
       ), inserted AS (
         INSERT INTO herald.notifications
           (dedup_key, user_id, type, channel, category, lane, template_key, template_version, locale, vars, next_attempt_at, job_queued_at, broadcast_id)
         SELECT 'broadcast:' || ${p(3)} || ':' || t.user_id || ':' || t.channel, t.user_id, 'broadcast', t.channel, ${p(8)}, ${p(9)},
                ${p(10)}, t.version, t.locale, ${p(11)}::jsonb, t.due_at,
                CASE WHEN t.due_at <= now() + make_interval(secs => ${p(17)}::float8 / 1000) THEN now() END,
                ${p(3)}
           FROM timed t
         ON CONFLICT (dedup_key) DO NOTHING
         RETURNING id, channel, next_attempt_at, job_queued_at
       ), numbered AS (
         -- As herald.pump does: rows due in the same second share jobs of at most batchSize ids.
         SELECT i.id, i.channel, date_trunc('second', greatest(i.next_attempt_at, now())) AS run_at,
                (row_number() OVER (PARTITION BY i.channel, date_trunc('second', greatest(i.next_attempt_at, now())) ORDER BY i.id) - 1) / ${p(16)}::int AS chunk
           FROM inserted i
          WHERE i.job_queued_at IS NOT NULL
       ), specs AS (
         SELECT array_agg(s.spec) AS specs FROM (
           SELECT ('send_' || nb.channel, json_build_object('ids', json_agg(nb.id::text ORDER BY nb.id)), NULL, nb.run_at, 25, NULL,
                   CASE ${p(9)}::text WHEN 'critical' THEN -10 ELSE 0 END, NULL)::graphile_worker.job_spec AS spec
             FROM numbered nb
            GROUP BY nb.channel, nb.run_at, nb.chunk
         ) s
       ), enqueued AS (
         -- No add_jobs (and no NOTIFY) for a chunk whose rows are all due later.
         SELECT count(*)::int AS jobs FROM specs, graphile_worker.add_jobs(specs.specs) WHERE specs.specs IS NOT NULL
       )
       SELECT (SELECT count(*) FROM seg)::int AS users, (SELECT max(user_id) FROM seg)::text AS last_user,
              (SELECT count(*) FROM inserted)::int AS created, (SELECT count(*) FROM holdouts)::int AS held_out,
              (SELECT jobs FROM enqueued) AS jobs`,
      [
        ...audience.params,
        b.fanout_after_user,
        chunkSize,
        broadcastId,
        Math.round(b.holdout * 100),
        variants.map((v) => v.version),
        upTo,
        b.channels,
        b.category,
        b.lane,
        b.template_key,
        JSON.stringify(b.data),
        b.throttle_per_minute,
        timing.kind === "instant" ? timing.at.toISOString() : timing.localDateTime,
        timing.kind === "local" ? timing.defaultTimezone : null,
        b.targeted,
        jobs?.batchSize ?? null,
        jobs?.lookaheadMs ?? null,
      ],
    );
    const r = result[0];
    const done = r.users < chunkSize;
    await client.query(
      `UPDATE herald.broadcasts SET fanout_after_user = coalesce($2::bigint, fanout_after_user), targeted = targeted + $3, held_out = held_out + $4,
              fanout_done_at = CASE WHEN $5 THEN herald.clock() ELSE fanout_done_at END, updated_at = now()
        WHERE id = $1`,
      [broadcastId, r.last_user, r.created, r.held_out, done],
    );
    return { kind: "chunk", users: r.users, created: r.created, heldOut: r.held_out, jobs: r.jobs, done };
  });
}
