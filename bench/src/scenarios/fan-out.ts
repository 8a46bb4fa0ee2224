import { parseRule } from "@herald/core";
import { createBroadcast, fanOutChunk, pumpOnce, segmentQuery, transitionBroadcast } from "@herald/db";
import pg from "pg";
import { openSeedBroadcast, SEED_BATCH } from "../../baselines/seed-broadcast.ts";
import { createBenchDatabase } from "../bench-database.ts";
import { interleave, type Scale, type Scenario, type ScenarioContext, type ScenarioOutcome } from "../scenario.ts";
import { sizeOf, warmupSizeOf } from "../sizes.ts";
import { summarize } from "../stats.ts";
import { prepareWorkload } from "../workload.ts";

const HERALD = "Herald fan-out (rows + jobs), then pump";
const BARE = "bare INSERT … SELECT";
const SEED = "seed's per-user loop";
/** The start task's chunk size (apps/server/src/tasks/start-broadcast.ts). */
const CHUNK_USERS = 5_000;
/** The server's default HERALD_BATCH_SIZE: notifications per send job. */
const PUMP_BATCH = 100;
/**
 * The seed's loop runs on this many users and is extrapolated (it needs minutes per 1M): the
 * issue's 10,000 from medium up; 2,000 at small, where four passes of 10,000 were a quarter of
 * the whole run (its rate does not depend on the count: each user is its own transactions).
 */
const SEED_USERS: Record<Scale | "tiny", number> = { small: 2_000, medium: 10_000, large: 10_000, tiny: 500 };

interface HeraldSample {
  rowsPerSecond: number;
  fanOutSeconds: number;
  pumpSeconds: number;
}

export const fanOutScenario: Scenario = {
  name: "fanout",
  summary:
    "a broadcast's fan-out to N users (compiled segment, chunked transactions, dedup keys) and the pump turning every row into send jobs, vs one bare INSERT … SELECT of N notification rows, and vs the seed's per-user broadcast loop",
  run: runFanOut,
};

async function runFanOut(ctx: ScenarioContext): Promise<ScenarioOutcome> {
  const size = sizeOf("fanout", ctx.scale, ctx.tiny);
  const db = await createBenchDatabase(ctx.cluster.url, "fanout");
  const pool = new pg.Pool({ connectionString: db.url, max: 2, application_name: "herald-bench" });
  try {
    const setup = await prepare(pool, size);
    // Every round fans out to the whole population; the audience query picks the first `n` users.
    const audienceOf = async (n: number) => {
      const rule = parseRule({ kind: "and", children: [{ kind: "has_email" }, { kind: "attribute", attribute: "rank", op: "lt", value: n }] });
      if (!rule.ok) throw new Error("bench rule does not parse");
      return segmentQuery(pool, rule.rule, new Date());
    };
    const seedUsers = SEED_USERS[ctx.tiny ? "tiny" : ctx.scale];
    const seed = await openSeedBroadcast(db.url, seedUsers);
    try {
      const samples = await interleave<HeraldSample>(
        [
          { name: HERALD, run: (n) => heraldRound(pool, setup, audienceOf, n) },
          { name: BARE, run: (n, round) => bareRound(pool, n, round) },
          {
            name: SEED,
            run: async () => {
              const { users, seconds } = await seed.broadcast();
              await seed.reset();
              return { rowsPerSecond: users / seconds, fanOutSeconds: seconds, pumpSeconds: 0 };
            },
          },
        ],
        {
          size,
          warmupSize: warmupSizeOf(size),
          repeats: ctx.repeats,
          log: ctx.log,
          describe: (s) => `${Math.round(s.rowsPerSecond).toLocaleString("en")} rows/s` + (s.pumpSeconds ? ` (pump ${s.pumpSeconds.toFixed(2)} s of ${(s.fanOutSeconds + s.pumpSeconds).toFixed(2)} s)` : ""),
        },
      );
      const heraldSamples = samples.get(HERALD)!;
      const committed = summarize(heraldSamples.map((s) => size / s.fanOutSeconds));
      const jobbed = summarize(heraldSamples.map((s) => s.rowsPerSecond));
      const bare = summarize(samples.get(BARE)!.map((s) => s.rowsPerSecond));
      const seedRate = summarize(samples.get(SEED)!.map((s) => s.rowsPerSecond));
      const pumpShare = summarize(heraldSamples.map((s) => (100 * s.pumpSeconds) / (s.fanOutSeconds + s.pumpSeconds)));
      return {
        notes: [
          `${size.toLocaleString("en")} users with an email, one channel: ${size.toLocaleString("en")} notification rows per round, chunks of ${CHUNK_USERS.toLocaleString("en")} users`,
          `"rows committed" is timed from the first chunk to the last commit, each chunk committing its rows with their send jobs (${PUMP_BATCH} notifications per job); "+ jobs" goes on until a pump pass (no back-pressure) finds nothing left to queue; the pump took ${pumpShare.median.toFixed(0)} % of that time (${pumpShare.min.toFixed(0)}–${pumpShare.max.toFixed(0)} %)`,
          `the seed's loop (preferences read, insert, created event, re-read, tokens, mark sent, sent event per user; ${SEED_BATCH} users at a time) ran on ${seedUsers.toLocaleString("en")} users; at its median rate ${size.toLocaleString("en")} users would take ${formatDuration(size / seedRate.median)}`,
        ],
        metrics: [
          {
            metric: "rows/s, rows committed",
            herald: committed,
            baseline: { name: BARE, summary: bare },
            verdict: { target: "≤ 2× the bare insert's time", met: committed.median * 2 >= bare.median },
          },
          {
            metric: "rows/s, rows committed",
            herald: committed,
            baseline: { name: SEED, summary: seedRate },
            verdict: { target: "≥ 10× the seed's loop", met: committed.median >= 10 * seedRate.median },
          },
          {
            metric: "rows/s, committed + jobs",
            herald: jobbed,
            baseline: { name: BARE, summary: bare },
            verdict: { target: "≤ 2× the bare insert's time", met: jobbed.median * 2 >= bare.median },
          },
        ],
        peakRssMb: 0,
      };
    } finally {
      await seed.stop();
    }
  } finally {
    await pool.end();
    if (!ctx.keepDatabases) await db.drop();
  }
}

type AudienceOf = (n: number) => ReturnType<typeof segmentQuery>;

async function heraldRound(pool: pg.Pool, setup: { memberId: string; segmentId: string }, audienceOf: AudienceOf, n: number): Promise<HeraldSample> {
  const id = await createBroadcast(
    pool,
    { name: "bench", segmentId: setup.segmentId, templateKey: "bench.sale", variants: [{ version: 1, percent: 100 }], channels: ["email"], category: "bench", lane: "bulk", holdoutPercent: 0, throttlePerMinute: null, data: {} },
    setup.memberId,
  );
  await transitionBroadcast(pool, id, ["draft"], "sending");
  const audience = await audienceOf(n);
  const started = performance.now();
  for (;;) {
    const outcome = await fanOutChunk(pool, id, audience, { kind: "instant", at: new Date() }, CHUNK_USERS, { batchSize: PUMP_BATCH, lookaheadMs: 5_000 });
    if (outcome.kind === "stopped" || outcome.done) break;
  }
  const fannedOut = performance.now();
  // The chunks queued every due row's job themselves (decision 0016); whatever the pump still
  // finds, with unbounded room, is timed here too.
  let jobbed = 0;
  for (;;) {
    const passes = await pumpOnce(pool, { batchSize: PUMP_BATCH, maxQueuedBatches: Math.ceil(n / PUMP_BATCH) + 1, lookaheadMs: 5_000 });
    const rows = passes.reduce((sum, p) => sum + p.notifications, 0);
    if (rows === 0) break;
    jobbed += rows;
  }
  const pumped = performance.now();
  const { rows: queued } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM graphile_worker._private_jobs j, json_array_elements(j.payload->'ids')");
  if (queued[0]!.n !== n) throw new Error(`send jobs hold ${queued[0]!.n} of ${n} rows (the pump queued ${jobbed})`);
  await park(pool);
  const fanOutSeconds = (fannedOut - started) / 1000;
  const pumpSeconds = (pumped - fannedOut) / 1000;
  return { rowsPerSecond: n / (fanOutSeconds + pumpSeconds), fanOutSeconds, pumpSeconds };
}

async function bareRound(pool: pg.Pool, n: number, round: string): Promise<HeraldSample> {
  const started = performance.now();
  await pool.query(
    `INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, lane, template_key, template_version, vars)
     SELECT 'bare:' || $1 || ':' || u.id || ':email', u.id, 'broadcast', 'email', 'bench', 'bulk', 'bench.sale', 1, '{}'::jsonb
       FROM herald.users u WHERE u.email IS NOT NULL AND (u.attributes->>'rank')::int < $2`,
    [`${round}-${Date.now()}`, n],
  );
  const seconds = (performance.now() - started) / 1000;
  await park(pool);
  return { rowsPerSecond: n / seconds, fanOutSeconds: seconds, pumpSeconds: 0 };
}

/** Settles every row and drops the jobs, so the next round meets the same small partial indexes. */
async function park(pool: pg.Pool): Promise<void> {
  await pool.query("UPDATE herald.notifications SET status = 'canceled', dispatch_state = 'done' WHERE dispatch_state <> 'done'");
  await pool.query("DELETE FROM graphile_worker._private_jobs");
  await pool.query("VACUUM ANALYZE herald.notifications");
}

function formatDuration(seconds: number): string {
  return seconds < 120 ? `${seconds.toFixed(0)} s` : `${(seconds / 60).toFixed(1)} min`;
}

/** N users with an email and a rank, a published email template, and a segment for the broadcasts. */
async function prepare(pool: pg.Pool, size: number): Promise<{ memberId: string; segmentId: string }> {
  const { memberId } = await prepareWorkload(pool, {
    category: "bench",
    template: { key: "bench.sale", name: "Bench sale", channels: ["email"], body: { variables: [], content: { en: { email: { subject: "Sale", html: "<p>Sale</p>" } } } } },
    users: { count: size, rank: true },
  });
  const segment = await pool.query<{ id: string }>(`INSERT INTO herald.segments (name, rule) VALUES ('bench', '{"kind": "has_email"}') RETURNING id::text`);
  return { memberId, segmentId: segment.rows[0]!.id };
}
