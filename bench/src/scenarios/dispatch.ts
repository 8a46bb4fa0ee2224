import { ingestEvents, withTransaction } from "@herald/db";
import pg from "pg";
import { startNoopDrain, type NoopDrain } from "../../baselines/graphile-worker-noop.ts";
import { openSeedQueue, SEED_CLAIM_LIMIT, SEED_DRAINERS, SEED_QUEUE_SCHEMA, type SeedQueue } from "../../baselines/seed-queue.ts";
import { createBenchDatabase, openBenchPool, walBytes } from "../bench-database.ts";
import { describePreset, presetEnv, type RunnerPreset } from "../bench-env.ts";
import { sleep, startHerald, type HeraldProcess } from "../herald-process.ts";
import { interleave, type Scenario, type ScenarioContext, type ScenarioOutcome } from "../scenario.ts";
import { sizeOf, warmupSizeOf } from "../sizes.ts";
import { summarize } from "../stats.ts";
import {
  BENCH_CATEGORY,
  BENCH_TEMPLATE_BODY,
  BENCH_TEMPLATE_KEY,
  BENCH_TEMPLATE_TYPE,
  BENCH_TYPE,
  generateEvents,
  prepareWorkload,
  USER_POOL,
  userExternalId,
} from "../workload.ts";

const HERALD = "Herald worker";
const NOOP = "graphile-worker no-op";
const SEED = "seed's design";
const INGEST_CHUNK = 2_000;
const POLL_MS = 100;

export interface DispatchSample {
  /** Notifications (or, for the no-op drain, notification-equivalents) per second. */
  perSecond: number;
  /** Jobs per second: batch jobs for Herald, no-op jobs for graphile-worker. */
  jobsPerSecond: number;
  /** CPU the Herald process used per notification (0 for the baselines). */
  serverCpuMs: number;
  /** Write-ahead log written per notification (per notification-equivalent for the no-op drain). */
  walBytes: number;
}

export const dispatchScenario: Scenario = {
  name: "dispatch",
  summary:
    "queued → sent through every gate with zero provider latency (HERALD_ROLE=worker, sandbox providers) vs graphile-worker draining no-op jobs and the seed's one-table queue",
  run: runDispatch,
};

async function runDispatch(ctx: ScenarioContext): Promise<ScenarioOutcome> {
  const size = sizeOf("dispatch", ctx.scale, ctx.tiny);
  const warmupSize = warmupSizeOf(size);
  const preset = ctx.env.preset;
  const concurrency = preset.pushConcurrency + preset.emailConcurrency + preset.smsConcurrency;
  const db = await createBenchDatabase(ctx.cluster.url, "dispatch");
  const noopDb = await createBenchDatabase(ctx.cluster.url, "dispatch_noop", { herald: false });
  const pool = openBenchPool(db.url, 3, ctx.log);
  let herald: HeraldProcess | null = null;
  let noop: NoopDrain | null = null;
  let seed: SeedQueue | null = null;
  try {
    await prepareDispatchWorkload(pool);
    await pool.query(SEED_QUEUE_SCHEMA);
    const server = await startHerald({
      databaseUrl: db.url,
      role: "worker",
      childBase: ctx.env.childBase,
      env: dispatchServerEnv(preset, 0),
    });
    herald = server;
    // The no-op drain has a database of its own: its job inserts would otherwise wake Herald's runners.
    noop = await startNoopDrain(noopDb.url, concurrency);
    seed = await openSeedQueue(db.url);
    const users = Array.from({ length: USER_POOL }, (_, i) => userExternalId(i));
    const drain = noop;
    const seedQueue = seed;

    const samples = await interleave<DispatchSample>(
      [
        { name: HERALD, run: (n, round) => heraldRound(pool, server, ctx.seed, n, round, preset.batchSize) },
        {
          name: NOOP,
          run: async (n) => {
            const jobs = Math.ceil(n / preset.batchSize);
            const walBefore = await walBytes(pool);
            const { durationMs } = await drain.drain(jobs, preset.batchSize);
            const wal = ((await walBytes(pool)) - walBefore) / (jobs * preset.batchSize);
            return { perSecond: (jobs * preset.batchSize) / (durationMs / 1000), jobsPerSecond: jobs / (durationMs / 1000), serverCpuMs: 0, walBytes: wal };
          },
        },
        {
          name: SEED,
          run: async (n) => {
            await seedQueue.enqueue(n, users);
            const walBefore = await walBytes(pool);
            const { durationMs, sent } = await seedQueue.drain();
            const wal = ((await walBytes(pool)) - walBefore) / n;
            if (sent !== n) throw new Error(`the seed's drain sent ${sent} of ${n} rows`);
            return { perSecond: n / (durationMs / 1000), jobsPerSecond: 0, serverCpuMs: 0, walBytes: wal };
          },
        },
      ],
      {
        size,
        warmupSize,
        repeats: ctx.repeats,
        log: ctx.log,
        describe: (s) =>
          `${Math.round(s.perSecond).toLocaleString("en-US")}/s` +
          (s.jobsPerSecond ? `, ${Math.round(s.jobsPerSecond).toLocaleString("en-US")} jobs/s` : "") +
          (s.serverCpuMs ? `, server CPU ${s.serverCpuMs.toFixed(3)} ms/notification` : "") +
          `, WAL ${(s.walBytes / 1024).toFixed(2)} KiB/notification`,
      },
    );
    const peakRssMb = server.peakRssMb();

    const h = samples.get(HERALD)!;
    const heraldRate = summarize(h.map((s) => s.perSecond));
    const noopRate = summarize(samples.get(NOOP)!.map((s) => s.perSecond));
    const seedRate = summarize(samples.get(SEED)!.map((s) => s.perSecond));
    const perRound = 3 * Math.ceil(size / 3);
    return {
      notes: [
        `Herald: HERALD_ROLE=worker, HERALD_MODE=development (sandbox providers, zero latency), sandbox bucket 1,000,000/s, ` +
          `delivery callbacks delayed 1 h so they do not compete; ${describePreset(preset)}.`,
        `${perRound.toLocaleString("en-US")} notifications per round (${Math.ceil(size / 3).toLocaleString("en-US")} events × push, email, sms; ` +
          `warm-up ${warmupSize.toLocaleString("en-US")}), ingested through herald.ingest_events in one transaction while the worker idles ` +
          `(not timed); timed from that commit until the last notification left pending (max(updated_at); polled every ${POLL_MS} ms). ` +
          `Users from a pool of ${USER_POOL.toLocaleString("en-US")}, each with an email, a phone and an active push token: every gate passes, every notification is sent.`,
        `graphile-worker no-op: one runner, concurrency ${concurrency} (Herald's total), poll interval 2 s and batched completion as in Herald's runners, ` +
          `ceil(N / ${preset.batchSize}) jobs of ${preset.batchSize} ids added in one statement, on a database of its own; ` +
          `notification-equivalents/s = jobs/s × ${preset.batchSize}.`,
        `Seed's design: bench_baseline.seed_notifications with its partial index, ${SEED_DRAINERS} drainers claiming ${SEED_CLAIM_LIMIT} due rows oldest first ` +
          `FOR UPDATE SKIP LOCKED, then per row one UPDATE (sent) and one event INSERT, one commit per claim.`,
      ],
      metrics: [
        { metric: "notifications/s", herald: heraldRate, baseline: null, verdict: { target: "≥ 5,000/s", met: heraldRate.median >= 5000 } },
        {
          metric: "notifications/s vs no-op jobs × batch",
          herald: heraldRate,
          baseline: { name: NOOP, summary: noopRate },
          verdict: { target: "≥ 25 % of no-op drain", met: heraldRate.median >= 0.25 * noopRate.median },
        },
        {
          metric: "jobs/s (Herald: batch jobs)",
          herald: summarize(h.map((s) => s.jobsPerSecond)),
          baseline: { name: NOOP, summary: summarize(samples.get(NOOP)!.map((s) => s.jobsPerSecond)) },
          verdict: null,
        },
        {
          metric: "notifications/s vs seed's design",
          herald: heraldRate,
          baseline: { name: SEED, summary: seedRate },
          verdict: { target: "≥ 10× seed's design", met: heraldRate.median >= 10 * seedRate.median },
        },
        {
          metric: "WAL written (KiB per notification)",
          herald: summarize(h.map((s) => s.walBytes / 1024)),
          baseline: { name: SEED, summary: summarize(samples.get(SEED)!.map((s) => s.walBytes / 1024)) },
          verdict: null,
        },
        { metric: "server CPU (ms per 1,000 notifications)", herald: summarize(h.map((s) => s.serverCpuMs * 1000)), baseline: null, verdict: null },
        { metric: "peak RSS (MiB)", herald: summarize([peakRssMb]), baseline: null, verdict: null },
      ],
      peakRssMb,
    };
  } finally {
    await herald?.stop();
    await noop?.stop();
    await seed?.stop();
    await pool.end();
    if (!ctx.keepDatabases) {
      await db.drop();
      await noopDb.drop();
    }
  }
}

/** The bench's published three-channel template and type, and a pool of users every gate lets through. */
export async function prepareDispatchWorkload(pool: pg.Pool): Promise<void> {
  await prepareWorkload(pool, {
    category: BENCH_CATEGORY,
    template: { key: BENCH_TEMPLATE_KEY, name: "Bench receipt", channels: ["push", "email", "sms"], body: BENCH_TEMPLATE_BODY },
    notificationType: { key: BENCH_TYPE, channels: BENCH_TEMPLATE_TYPE.channels },
    users: { count: USER_POOL, phone: true, device: true },
  });
}

/** A worker's environment: the runner preset, an unlimited sandbox bucket, `latencyMs` per sandbox call on every channel. */
export function dispatchServerEnv(preset: RunnerPreset, latencyMs: number): Record<string, string> {
  const latency = String(latencyMs);
  return {
    ...presetEnv(preset),
    // Delivery callbacks land an hour later: only the send path is measured.
    HERALD_SANDBOX_DELIVERY_DELAY_MS: "3600000",
    HERALD_SANDBOX_RATE_PER_SECOND: "1000000",
    HERALD_SANDBOX_PUSH_LATENCY_MS: latency,
    HERALD_SANDBOX_EMAIL_LATENCY_MS: latency,
    HERALD_SANDBOX_SMS_LATENCY_MS: latency,
  };
}

/**
 * One Herald round: ceil(n / 3) events ingested in one transaction (setup, the worker sees
 * nothing until the commit), then timed from the commit until none of them is pending.
 */
export async function heraldRound(pool: pg.Pool, server: HeraldProcess, seed: number, n: number, round: string, batchSize: number): Promise<DispatchSample> {
  const events = generateEvents(seed, `dispatch-${round}`, Math.ceil(n / 3));
  const { rows: before } = await pool.query<{ id: string }>("SELECT coalesce(max(id), 0)::text AS id FROM herald.notifications");
  const after = before[0]!.id;
  await withTransaction(pool, async (tx) => {
    for (let i = 0; i < events.length; i += INGEST_CHUNK) {
      const results = await ingestEvents(tx, events.slice(i, i + INGEST_CHUNK));
      const refused = results.find((r) => r.outcome !== "created");
      if (refused) throw new Error(`ingest answered ${refused.outcome} for event ${refused.eventId}`);
    }
  });
  // Postgres's clock, like the updated_at the round ends with.
  const { rows: clock } = await pool.query<{ t: number }>("SELECT extract(epoch FROM clock_timestamp())::float8 AS t");
  const started = clock[0]!.t;
  const cpuBefore = server.cpuMs();
  const walBefore = await walBytes(pool);

  const deadline = Date.now() + 120_000 + n * 5;
  for (;;) {
    await sleep(POLL_MS);
    // The newest rows are sent last: a backward scan finds a pending one at once while any is left.
    const { rowCount } = await pool.query(
      "SELECT id FROM herald.notifications WHERE id > $1 AND status = 'pending' ORDER BY id DESC LIMIT 1",
      [after],
    );
    if (!rowCount) break;
    if (Date.now() > deadline) throw new Error(`notifications still pending after ${Math.round((Date.now() - started * 1000) / 1000)} s: ${await describeRound(pool, after)}`);
  }
  const { rows } = await pool.query<{ ended: number; total: number; sent: number }>(
    `SELECT extract(epoch FROM max(updated_at))::float8 AS ended, count(*)::int AS total, count(*) FILTER (WHERE status = 'sent')::int AS sent
       FROM herald.notifications WHERE id > $1`,
    [after],
  );
  const r = rows[0]!;
  if (r.sent !== r.total || r.total !== 3 * events.length) {
    throw new Error(`expected ${3 * events.length} notifications sent; ${await describeRound(pool, after)}`);
  }
  const seconds = r.ended - started;
  // Charged up to the last poll, so it includes the worker's idle pump passes for up to 100 ms.
  const serverCpuMs = (server.cpuMs() - cpuBefore) / r.total;
  const wal = ((await walBytes(pool)) - walBefore) / r.total;
  return { perSecond: r.total / seconds, jobsPerSecond: r.total / batchSize / seconds, serverCpuMs, walBytes: wal };
}

async function describeRound(pool: pg.Pool, after: string): Promise<string> {
  const { rows } = await pool.query(
    `SELECT status, dispatch_state, reason, count(*)::int AS n FROM herald.notifications WHERE id > $1
      GROUP BY 1, 2, 3 ORDER BY n DESC LIMIT 10`,
    [after],
  );
  return rows.map((r) => `${r.n} ${r.status}/${r.dispatch_state}${r.reason ? ` (${r.reason})` : ""}`).join(", ");
}
