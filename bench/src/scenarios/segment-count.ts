import { SEGMENT_PRESETS, type Rule } from "@herald/core";
import { broadcastDryRun, countSegment, segmentQuery, upsertCategory } from "@herald/db";
import pg from "pg";
import { createBenchDatabase } from "../bench-database.ts";
import { interleave, type Contender, type Metric, type Scenario, type ScenarioContext, type ScenarioOutcome } from "../scenario.ts";
import { sizeOf } from "../sizes.ts";
import { summarize, type Summary } from "../stats.ts";

const BASELINE = "SELECT count(*) FROM herald.users";
const DRY_RUN_PRESET = "all_with_device";
const DRY_RUN_CHANNELS = ["push", "email"];
/** Users per generating statement (about 2,000,000 activities). */
const USERS_PER_STATEMENT = 100_000;
/** Activity inserts per ingest round (single-row, batched), and rows per statement of the batched ones. */
const INGEST_ROWS = { full: { single: 1_000, batched: 5_000 }, tiny: { single: 200, batched: 500 } };
const INGEST_BATCH = 500;
const INGEST_CLIENTS = 4;
const TRIGGER = "activity_summaries_add";

export const segmentCountScenario: Scenario = {
  name: "segment-count",
  summary:
    "the live count of each segment preset and a broadcast's dry run by reason on N users with 20 activities each, vs SELECT count(*) of the users; activity ingest with and without the summary trigger",
  run: runSegmentCount,
};

async function runSegmentCount(ctx: ScenarioContext): Promise<ScenarioOutcome> {
  const users = sizeOf("segmentCount", ctx.scale, ctx.tiny);
  const db = await createBenchDatabase(ctx.cluster.url, "segment_count");
  const pool = new pg.Pool({ connectionString: db.url, max: INGEST_CLIENTS, application_name: "herald-bench" });
  try {
    const setup = await generate(pool, users, ctx);
    const now = new Date();
    const queries = await Promise.all(SEGMENT_PRESETS.map(async (p) => ({ preset: p, query: await segmentQuery(pool, p.rule as Rule, now) })));
    const dryRunQuery = queries.find((q) => q.preset.key === DRY_RUN_PRESET)!.query;
    const sizes = new Map<string, number>();
    const timed = async (fn: () => Promise<number | null>, key: string) => {
      const started = performance.now();
      const n = await fn();
      if (n === null) throw new Error(`${key}: the count hit its timeout`);
      sizes.set(key, n);
      return (performance.now() - started) / 1000;
    };
    const contenders: Contender<number>[] = [
      ...queries.map(({ preset, query }) => ({ name: `count ${preset.key}`, run: () => timed(() => countSegment(pool, query, 60_000), preset.key) })),
      {
        name: "dry run by reason",
        run: () =>
          timed(async () => {
            const counts = await broadcastDryRun(
              pool,
              { id: "1", holdoutPercent: 10, variants: [{ version: 1, percent: 100 }], channels: DRY_RUN_CHANNELS, category: "bench", lane: "bulk" },
              dryRunQuery,
              new Date(),
              "UTC",
            );
            return counts.audience;
          }, "dry run"),
      },
      { name: "baseline count(*)", run: () => timed(async () => Number((await pool.query<{ count: string }>(BASELINE)).rows[0]!.count), "users") },
    ];
    const samples = await interleave(contenders, { size: users, warmupSize: users, repeats: ctx.repeats, log: ctx.log, describe: (s) => `${(s * 1000).toFixed(0)} ms` });
    const ms = (name: string) => summarize(samples.get(name)!.map((s) => s * 1000));
    const baseline = { name: BASELINE, summary: ms("baseline count(*)") };
    const metrics: Metric[] = [
      ...SEGMENT_PRESETS.map((p) => {
        const herald = ms(`count ${p.key}`);
        return { metric: `count ${p.key} (ms)`, herald, baseline, verdict: { target: "≤ 1 s", met: herald.median <= 1_000 } };
      }),
    ];
    const dry = ms("dry run by reason");
    metrics.push({ metric: "dry run by reason (ms)", herald: dry, baseline, verdict: { target: "≤ 3 s", met: dry.median <= 3_000 } });

    const ingest = await measureIngest(pool, ctx);
    metrics.push(...ingest.metrics);
    return {
      notes: [
        `${users.toLocaleString("en")} users, ${setup.activities.toLocaleString("en")} activities, ${setup.devices.toLocaleString("en")} devices (${setup.activeDevices.toLocaleString("en")} active), ${setup.summaries.toLocaleString("en")} summary rows; generated set-based in ${setup.seconds.toFixed(0)} s; database ${formatBytes(setup.databaseBytes)} (activities ${formatBytes(setup.activitiesBytes)} with its indexes, activity_summaries ${formatBytes(setup.summariesBytes)})`,
        `members: ${SEGMENT_PRESETS.map((p) => `${p.key} ${(sizes.get(p.key) ?? 0).toLocaleString("en")}`).join(", ")}; dry run: ${DRY_RUN_PRESET} on ${DRY_RUN_CHANNELS.join(" + ")}, 10 % holdout, ${(sizes.get("dry run") ?? 0).toLocaleString("en")} in the audience`,
        "each count runs as the dashboard's does (countSegment: one transaction, statement timeout), after a warm-up of every contender; rounds interleave every preset, the dry run and the baseline",
        ...ingest.notes,
      ],
      metrics,
      peakRssMb: 0,
    };
  } finally {
    await pool.end();
    if (!ctx.keepDatabases) await db.drop();
  }
}

interface Setup {
  seconds: number;
  activities: number;
  devices: number;
  activeDevices: number;
  summaries: number;
  databaseBytes: number;
  activitiesBytes: number;
  summariesBytes: number;
}

/**
 * The population, set-based and seeded (hashint8extended of the user id and the seed, so the
 * same seed and scale make the same data): 90 % with an email, 80 % with a plan and a
 * last_test_at in the last 90 days, 70 % with a push token (85 % of them active), and 5–36
 * activities per user (20.5 on average) of six names, half of them session_completed, which a
 * fifth of the users never do. Each user was last active between now and 30 days ago (skewed to
 * recent), with older activity up to 300 days before that. 3 % opted out of the category by email,
 * 1 % of emails are suppressed, 2 % have quiet hours.
 */
async function generate(pool: pg.Pool, users: number, ctx: ScenarioContext): Promise<Setup> {
  const started = performance.now();
  const seed = ctx.seed;
  await upsertCategory(pool, "bench", { label: "Bench" });
  await pool.query(
    `INSERT INTO herald.users (external_id, email, attributes)
     SELECT 'u' || i, CASE WHEN i % 10 <> 0 THEN 'u' || i || '@example.com' END,
            CASE WHEN i % 5 <> 4 THEN jsonb_build_object(
                   'plan', (ARRAY['free', 'pro', 'team'])[1 + i % 3],
                   'last_test_at', to_char((now() - (hashint8extended(i, $2) & 1023) * interval '90 days' / 1023) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                 ELSE '{}'::jsonb END
       FROM generate_series(1, $1::bigint) i`,
    [users, seed],
  );
  await pool.query(
    `INSERT INTO herald.devices (user_id, token, platform, active, deactivated_reason, deactivated_at)
     SELECT u.id, 'tok-' || u.id, (ARRAY['ios', 'android', 'web'])[1 + u.id % 3], h.x % 100 < 85,
            CASE WHEN h.x % 100 >= 85 THEN 'unregistered' END, CASE WHEN h.x % 100 >= 85 THEN now() END
       FROM herald.users u CROSS JOIN LATERAL (SELECT hashint8extended(u.id, $1 + 1) & 1048575 AS x) h
      WHERE h.x % 10 < 7`,
    [seed],
  );
  // The consent an imported audience carries, so the dry run's gates have people to turn away:
  // 3 % opted out of the category by email, 1 % of emails suppressed by a hard bounce, 2 % with
  // quiet hours at night in their zone.
  await pool.query(
    `INSERT INTO herald.preferences (user_id, category, channel, enabled, source)
     SELECT u.id, 'bench', 'email', false, 'import' FROM herald.users u WHERE hashint8extended(u.id, $1 + 6) & 1023 < 31`,
    [seed],
  );
  await pool.query(
    `INSERT INTO herald.suppressions (channel, address, reason, source)
     SELECT 'email', u.email, 'hard_bounce', 'provider' FROM herald.users u
      WHERE u.email IS NOT NULL AND hashint8extended(u.id, $1 + 7) & 1023 < 10`,
    [seed],
  );
  await pool.query(
    `INSERT INTO herald.quiet_hours (user_id, category, channel, start_time, end_time)
     SELECT u.id, '*', '*', '22:00', '07:00' FROM herald.users u WHERE hashint8extended(u.id, $1 + 8) & 1023 < 20`,
    [seed],
  );
  const { rows } = await pool.query<{ lo: string; hi: string }>("SELECT min(id)::text AS lo, max(id)::text AS hi FROM herald.users");
  const lo = Number(rows[0]!.lo);
  const hi = Number(rows[0]!.hi);
  // A bulk load as a restore does it: the table's indexes and its keys (primary, unique and the
  // foreign key to users, whose per-row check cost more than the rows) are dropped, the rows
  // inserted in a few large statements, then the keys and indexes rebuilt from their own
  // definitions. The summary trigger stays on, so herald.activity_summaries is written by
  // Herald's own trigger SQL; each user's activities come in one statement, so it only inserts.
  const client = await pool.connect();
  try {
    await client.query("SET maintenance_work_mem = '512MB'");
    await client.query("SET work_mem = '64MB'");
    await client.query("SET synchronous_commit = off");
    const { rows: constraints } = await client.query<{ name: string; definition: string }>(
      `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
        WHERE conrelid = 'herald.activities'::regclass AND contype IN ('p', 'u', 'f') ORDER BY contype DESC`,
    );
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
        WHERE i.schemaname = 'herald' AND i.tablename = 'activities'
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    );
    for (const index of indexes) await client.query(`DROP INDEX herald.${pg.escapeIdentifier(index.name)}`);
    for (const c of constraints) await client.query(`ALTER TABLE herald.activities DROP CONSTRAINT ${pg.escapeIdentifier(c.name)}`);
    for (let from = lo; from <= hi; from += USERS_PER_STATEMENT) {
      await client.query(
        `INSERT INTO herald.activities (user_id, name, occurred_at)
         SELECT u.id,
                CASE WHEN u.id % 5 = 0 AND r.name = 'session_completed' THEN 'app_opened' ELSE r.name END,
                now() - (hz.x * hz.x) * interval '30 days' - (r.t * r.t * r.t) * interval '300 days'
           FROM generate_series($1::bigint, $2::bigint) u(id)
          CROSS JOIN LATERAL (SELECT (hashint8extended(u.id, $3 + 2) & 1023) / 1023.0 AS x) hz
          CROSS JOIN LATERAL generate_series(1, 5 + (hashint8extended(u.id, $3 + 3) & 31)::int) k
          CROSS JOIN LATERAL (
            SELECT CASE WHEN v.r < 512 THEN 'session_completed' WHEN v.r < 768 THEN 'app_opened' WHEN v.r < 870 THEN 'test_taken'
                        WHEN v.r < 920 THEN 'purchase' WHEN v.r < 980 THEN 'level_up' ELSE 'share' END AS name, v.t
              FROM (SELECT hashint8extended(u.id * 64 + k, $3 + 4) & 1023 AS r, (hashint8extended(u.id * 64 + k, $3 + 5) & 1023) / 1023.0 AS t) v
          ) r`,
        [from, Math.min(hi, from + USERS_PER_STATEMENT - 1), seed],
      );
      const done = Math.min(hi, from + USERS_PER_STATEMENT - 1) - lo + 1;
      if (done % (USERS_PER_STATEMENT * 2) === 0 || done === hi - lo + 1) ctx.log(`  activities for ${done.toLocaleString("en")} of ${users.toLocaleString("en")} users (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
    for (const c of [...constraints].reverse()) await client.query(`ALTER TABLE herald.activities ADD CONSTRAINT ${pg.escapeIdentifier(c.name)} ${c.definition}`);
    for (const index of indexes) await client.query(index.definition);
    ctx.log(`  keys and indexes rebuilt (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  } finally {
    client.release();
  }
  // What autovacuum would have done by the time anyone counts: statistics and the visibility map.
  await pool.query(
    "VACUUM ANALYZE herald.users, herald.devices, herald.activities, herald.activity_summaries, herald.preferences, herald.suppressions, herald.quiet_hours",
  );
  const seconds = (performance.now() - started) / 1000;
  const stats = await pool.query(
    `SELECT (SELECT count(*) FROM herald.activities)::float8 AS activities,
            (SELECT count(*) FROM herald.devices)::float8 AS devices,
            (SELECT count(*) FROM herald.devices WHERE active)::float8 AS active_devices,
            (SELECT count(*) FROM herald.activity_summaries)::float8 AS summaries,
            pg_database_size(current_database())::float8 AS database_bytes,
            pg_total_relation_size('herald.activities')::float8 AS activities_bytes,
            pg_total_relation_size('herald.activity_summaries')::float8 AS summaries_bytes`,
  );
  const s = stats.rows[0];
  return {
    seconds,
    activities: s.activities,
    devices: s.devices,
    activeDevices: s.active_devices,
    summaries: s.summaries,
    databaseBytes: s.database_bytes,
    activitiesBytes: s.activities_bytes,
    summariesBytes: s.summaries_bytes,
  };
}

/**
 * What the summary trigger costs an activity insert: the same inserts with the trigger enabled
 * and disabled, interleaved — single-row autocommit INSERTs from four clients (the REST API's
 * shape) and 500-row INSERTs (an import's). Runs after the counts: rows inserted while the
 * trigger is off are not summarised, and nothing is counted after.
 */
async function measureIngest(pool: pg.Pool, ctx: ScenarioContext): Promise<{ metrics: Metric[]; notes: string[] }> {
  const sizes = ctx.tiny ? INGEST_ROWS.tiny : INGEST_ROWS.full;
  const { rows: range } = await pool.query<{ lo: string; hi: string }>("SELECT min(id)::text AS lo, max(id)::text AS hi FROM herald.users");
  const lo = Number(range[0]!.lo);
  const span = Number(range[0]!.hi) - lo + 1;
  let cursor = 0;
  const userOf = () => lo + ((cursor++ * 7919) % span);
  const withTrigger = async (enabled: boolean, rows: number, fn: () => Promise<void>) => {
    if (!enabled) await pool.query(`ALTER TABLE herald.activities DISABLE TRIGGER ${TRIGGER}`);
    try {
      const started = performance.now();
      await fn();
      return rows / ((performance.now() - started) / 1000);
    } finally {
      if (!enabled) await pool.query(`ALTER TABLE herald.activities ENABLE TRIGGER ${TRIGGER}`);
    }
  };
  const single = (enabled: boolean) => () =>
    withTrigger(enabled, sizes.single, async () => {
      const users = Array.from({ length: sizes.single }, userOf);
      let next = 0;
      await Promise.all(
        Array.from({ length: INGEST_CLIENTS }, async () => {
          while (next < users.length) {
            const user = users[next++]!;
            await pool.query("INSERT INTO herald.activities (user_id, name) VALUES ($1, 'session_completed')", [user]);
          }
        }),
      );
    });
  const batched = (enabled: boolean) => () =>
    withTrigger(enabled, sizes.batched, async () => {
      for (let done = 0; done < sizes.batched; done += INGEST_BATCH) {
        const users = Array.from({ length: Math.min(INGEST_BATCH, sizes.batched - done) }, userOf);
        await pool.query("INSERT INTO herald.activities (user_id, name) SELECT unnest($1::bigint[]), 'app_opened'", [users]);
      }
    });
  const names = { single: ["single-row, trigger", "single-row, no trigger"], batched: [`${INGEST_BATCH}-row, trigger`, `${INGEST_BATCH}-row, no trigger`] } as const;
  const samples = await interleave<number>(
    [
      { name: names.single[0], run: single(true) },
      { name: names.single[1], run: single(false) },
      { name: names.batched[0], run: batched(true) },
      { name: names.batched[1], run: batched(false) },
    ],
    { size: sizes.batched, warmupSize: sizes.batched, repeats: ctx.repeats, log: ctx.log, describe: (s) => `${Math.round(s).toLocaleString("en")} activities/s` },
  );
  const pair = (label: string, [on, off]: readonly [string, string]): Metric => ({
    metric: `activities/s, ${label}`,
    herald: summarize(samples.get(on)!),
    baseline: { name: "same without the summary trigger", summary: summarize(samples.get(off)!) },
    verdict: null,
  });
  const ratio = (s: Summary, b: Summary) => `${Math.round((100 * s.median) / b.median)} %`;
  const single1 = summarize(samples.get(names.single[0])!);
  const single0 = summarize(samples.get(names.single[1])!);
  const batch1 = summarize(samples.get(names.batched[0])!);
  const batch0 = summarize(samples.get(names.batched[1])!);
  return {
    metrics: [pair("single-row INSERTs from 4 clients", names.single), pair(`${INGEST_BATCH}-row INSERTs`, names.batched)],
    notes: [
      `ingest: ${sizes.single.toLocaleString("en")} single-row and ${sizes.batched.toLocaleString("en")} batched activities per round into the populated table; with the trigger at ${ratio(single1, single0)} of the rate without it for single-row INSERTs, ${ratio(batch1, batch0)} for ${INGEST_BATCH}-row ones`,
    ],
  };
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}
