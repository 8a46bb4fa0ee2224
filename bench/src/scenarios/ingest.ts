import pg from "pg";
import { runSingleRowInserts, SINGLE_ROW_INSERT_SCHEMA } from "../../baselines/single-row-insert.ts";
import { createBenchDatabase, walBytes, withClient } from "../bench-database.ts";
import { createAdminApiKey, startHerald, type HeraldProcess } from "../herald-process.ts";
import { postConcurrently } from "../http-load.ts";
import { interleave, type Scenario, type ScenarioContext, type ScenarioOutcome } from "../scenario.ts";
import { sizeOf, warmupSizeOf } from "../sizes.ts";
import { percentile, summarize } from "../stats.ts";
import { configureBenchType, generateEvents, USER_POOL } from "../workload.ts";

const CONNECTIONS = 16;
const HERALD = "Herald POST /events";
const BASELINE = "single-row INSERT";

interface IngestSample {
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
  /** CPU the Herald process used per event (0 for the baseline, which has no server). */
  serverCpuMs: number;
  /** Write-ahead log written per event. */
  walBytes: number;
}

export const ingestScenario: Scenario = {
  name: "ingest",
  summary: `POST /api/v1/events from ${CONNECTIONS} keep-alive connections vs single-row INSERT transactions from ${CONNECTIONS} pg clients`,
  run: runIngest,
};

async function runIngest(ctx: ScenarioContext): Promise<ScenarioOutcome> {
  const size = sizeOf("ingest", ctx.scale, ctx.tiny);
  const warmupSize = warmupSizeOf(size);
  const db = await createBenchDatabase(ctx.cluster.url, "ingest");
  let herald: HeraldProcess | null = null;
  const probe = new pg.Client({ connectionString: db.url, application_name: "herald-bench" });
  try {
    await probe.connect();
    // The pool's users exist already, as they would in a running product.
    await probe.query("INSERT INTO herald.users (external_id) SELECT 'u' || i FROM generate_series(0, $1::int - 1) i", [USER_POOL]);
    await probe.query(SINGLE_ROW_INSERT_SCHEMA);
    const [server, key] = await Promise.all([
      startHerald({ databaseUrl: db.url, role: "api", childBase: ctx.env.childBase }),
      createAdminApiKey(db.url),
    ]);
    herald = server;
    const authorization = `Bearer ${key}`;
    await configureBenchType(server.baseUrl, authorization);

    const eventsUrl = new URL("/api/v1/events", server.baseUrl);
    const samples = await interleave<IngestSample>(
      [
        {
          name: HERALD,
          run: async (n, round) => {
            const bodies = generateEvents(ctx.seed, `ingest-${round}`, n).map((e) => JSON.stringify(e));
            const cpuBefore = server.cpuMs();
            const walBefore = await walBytes(probe);
            const result = await postConcurrently({ url: eventsUrl, headers: { authorization }, bodies, concurrency: CONNECTIONS });
            const wal = (await walBytes(probe)) - walBefore;
            const serverCpuMs = (server.cpuMs() - cpuBefore) / n;
            if (result.failures.size > 0) {
              const [status, { count, body }] = [...result.failures][0]!;
              throw new Error(`POST /api/v1/events answered ${status} ${count} time(s), e.g. ${body.slice(0, 300)}`);
            }
            return { ...sampleOf(n, result.durationMs, result.latenciesMs), serverCpuMs, walBytes: wal / n };
          },
        },
        {
          name: BASELINE,
          run: async (n, round) => {
            const walBefore = await walBytes(probe);
            const result = await runSingleRowInserts(db.url, generateEvents(ctx.seed, `ingest-${round}`, n), CONNECTIONS);
            return { ...sampleOf(n, result.durationMs, result.latenciesMs), walBytes: ((await walBytes(probe)) - walBefore) / n };
          },
        },
      ],
      {
        size,
        warmupSize,
        repeats: ctx.repeats,
        log: ctx.log,
        describe: (s) =>
          `${Math.round(s.perSecond).toLocaleString("en-US")}/s, p50 ${s.p50Ms.toFixed(1)} ms, p95 ${s.p95Ms.toFixed(1)} ms` +
          (s.serverCpuMs ? `, server CPU ${s.serverCpuMs.toFixed(2)} ms/event` : "") +
          `, WAL ${(s.walBytes / 1024).toFixed(1)} KiB/event`,
      },
    );
    await checkEverythingLanded(db.url, warmupSize + ctx.repeats * size);
    const peakRssMb = server.peakRssMb();

    const h = samples.get(HERALD)!;
    const b = samples.get(BASELINE)!;
    const rate = { herald: summarize(h.map((s) => s.perSecond)), baseline: summarize(b.map((s) => s.perSecond)) };
    const p95 = { herald: summarize(h.map((s) => s.p95Ms)), baseline: summarize(b.map((s) => s.p95Ms)) };
    return {
      notes: [
        `Herald runs with HERALD_ROLE=api: no workers in the process or on the database compete with ingest (the rows wait for a pump).`,
        `${size.toLocaleString("en-US")} events per round (warm-up ${warmupSize.toLocaleString("en-US")}), ${CONNECTIONS} concurrent keep-alive connections, ` +
          `users drawn from a pool of ${USER_POOL.toLocaleString("en-US")} (created beforehand); each event routes to 3 notifications (push, email, sms).`,
        `Baseline: the same pg driver, ${CONNECTIONS} clients, one INSERT … ON CONFLICT DO NOTHING transaction per event into bench_baseline.events.`,
      ],
      metrics: [
        {
          metric: "events/s (baseline: commits/s)",
          herald: rate.herald,
          baseline: { name: BASELINE, summary: rate.baseline },
          verdict: { target: "≥ 50 % of baseline", met: rate.herald.median >= 0.5 * rate.baseline.median },
        },
        {
          metric: "p95 latency (ms)",
          herald: p95.herald,
          baseline: { name: BASELINE, summary: p95.baseline },
          verdict: { target: "≤ 50 ms", met: p95.herald.median <= 50 },
        },
        {
          metric: "WAL written (KiB per event)",
          herald: summarize(h.map((s) => s.walBytes / 1024)),
          baseline: { name: BASELINE, summary: summarize(b.map((s) => s.walBytes / 1024)) },
          verdict: null,
        },
        { metric: "server CPU (ms per 1,000 events)", herald: summarize(h.map((s) => s.serverCpuMs * 1000)), baseline: null, verdict: null },
        { metric: "peak RSS (MiB)", herald: summarize([peakRssMb]), baseline: null, verdict: null },
      ],
      peakRssMb,
    };
  } finally {
    await probe.end().catch(() => undefined);
    await herald?.stop();
    if (!ctx.keepDatabases) await db.drop();
  }
}

function sampleOf(n: number, durationMs: number, latenciesMs: Float64Array): Omit<IngestSample, "walBytes"> {
  return { perSecond: n / (durationMs / 1000), p50Ms: percentile(latenciesMs, 50), p95Ms: percentile(latenciesMs, 95), serverCpuMs: 0 };
}

/** Every accepted event made its three notifications: a fast wrong answer is no result. */
export async function checkEverythingLanded(url: string, events: number): Promise<void> {
  const { rows } = await withClient(url, (c) =>
    c.query<{ events: number; notifications: number; baseline: number }>(
      `SELECT (SELECT count(*) FROM herald.events)::int AS events, (SELECT count(*) FROM herald.notifications)::int AS notifications,
              (SELECT count(*) FROM bench_baseline.events)::int AS baseline`,
    ),
  );
  const r = rows[0]!;
  if (r.events !== events || r.notifications !== 3 * events || r.baseline !== events) {
    throw new Error(`expected ${events} events, ${3 * events} notifications and ${events} baseline rows; found ${JSON.stringify(r)}`);
  }
}
