import pg from "pg";
import { ROWS_PER_STATEMENT, runMultiRowInserts } from "../../baselines/multi-row-insert.ts";
import { SINGLE_ROW_INSERT_SCHEMA } from "../../baselines/single-row-insert.ts";
import { createBenchDatabase, walBytes } from "../bench-database.ts";
import { createAdminApiKey, startHerald, type HeraldProcess } from "../herald-process.ts";
import { postConcurrently } from "../http-load.ts";
import { interleave, type Scenario, type ScenarioContext, type ScenarioOutcome } from "../scenario.ts";
import { sizeOf } from "../sizes.ts";
import { summarize } from "../stats.ts";
import { configureBenchType, generateEvents, USER_POOL } from "../workload.ts";
import { checkEverythingLanded } from "./ingest.ts";

const CONNECTIONS = 4;
const EVENTS_PER_REQUEST = 1_000;
const HERALD = "Herald POST /events/batch";
const BASELINE = `${ROWS_PER_STATEMENT}-row INSERTs`;

interface BatchSample {
  perSecond: number;
  /** Write-ahead log written per event (per row for the baseline). */
  walBytes: number;
  serverCpuMs: number;
}

export const ingestBatchScenario: Scenario = {
  name: "ingest-batch",
  summary: `POST /api/v1/events/batch of ${EVENTS_PER_REQUEST.toLocaleString("en-US")} events from ${CONNECTIONS} keep-alive connections vs ${ROWS_PER_STATEMENT}-rows-per-statement INSERTs from ${CONNECTIONS} pg clients`,
  run: runIngestBatch,
};

async function runIngestBatch(ctx: ScenarioContext): Promise<ScenarioOutcome> {
  const size = sizeOf("ingestBatch", ctx.scale, ctx.tiny);
  // Whole requests: about a tenth of a round, one to five of them.
  const warmupSize = Math.min(5, Math.max(1, Math.round(size / 10 / EVENTS_PER_REQUEST))) * EVENTS_PER_REQUEST;
  const db = await createBenchDatabase(ctx.cluster.url, "ingest_batch");
  let herald: HeraldProcess | null = null;
  const probe = new pg.Client({ connectionString: db.url, application_name: "herald-bench" });
  try {
    await probe.connect();
    await probe.query("INSERT INTO herald.users (external_id) SELECT 'u' || i FROM generate_series(0, $1::int - 1) i", [USER_POOL]);
    await probe.query(SINGLE_ROW_INSERT_SCHEMA);
    const [server, key] = await Promise.all([
      startHerald({ databaseUrl: db.url, role: "api", childBase: ctx.env.childBase }),
      createAdminApiKey(db.url),
    ]);
    herald = server;
    const authorization = `Bearer ${key}`;
    await configureBenchType(server.baseUrl, authorization);

    const url = new URL("/api/v1/events/batch", server.baseUrl);
    const samples = await interleave<BatchSample>(
      [
        {
          name: HERALD,
          run: async (n, round) => {
            const events = generateEvents(ctx.seed, `ingest-batch-${round}`, n);
            const bodies = Array.from({ length: n / EVENTS_PER_REQUEST }, (_, i) =>
              JSON.stringify({ events: events.slice(i * EVENTS_PER_REQUEST, (i + 1) * EVENTS_PER_REQUEST) }),
            );
            const cpuBefore = server.cpuMs();
            const walBefore = await walBytes(probe);
            const result = await postConcurrently({ url, headers: { authorization }, bodies, concurrency: CONNECTIONS });
            const wal = (await walBytes(probe)) - walBefore;
            if (result.failures.size > 0) {
              const [status, { count, body }] = [...result.failures][0]!;
              throw new Error(`POST /api/v1/events/batch answered ${status} ${count} time(s), e.g. ${body.slice(0, 300)}`);
            }
            return { perSecond: n / (result.durationMs / 1000), walBytes: wal / n, serverCpuMs: (server.cpuMs() - cpuBefore) / n };
          },
        },
        {
          name: BASELINE,
          run: async (n, round) => {
            const walBefore = await walBytes(probe);
            const { durationMs } = await runMultiRowInserts(db.url, generateEvents(ctx.seed, `ingest-batch-${round}`, n), CONNECTIONS);
            return { perSecond: n / (durationMs / 1000), walBytes: ((await walBytes(probe)) - walBefore) / n, serverCpuMs: 0 };
          },
        },
      ],
      {
        size,
        warmupSize,
        repeats: ctx.repeats,
        log: ctx.log,
        describe: (s) =>
          `${Math.round(s.perSecond).toLocaleString("en-US")} events/s` +
          (s.serverCpuMs ? `, server CPU ${s.serverCpuMs.toFixed(3)} ms/event` : "") +
          `, WAL ${(s.walBytes / 1024).toFixed(2)} KiB/event`,
      },
    );
    // A 200 answer carries one result per event: the counts prove each was created, not refused.
    await checkEverythingLanded(db.url, warmupSize + ctx.repeats * size);
    const peakRssMb = server.peakRssMb();

    const h = samples.get(HERALD)!;
    const b = samples.get(BASELINE)!;
    const rate = { herald: summarize(h.map((s) => s.perSecond)), baseline: summarize(b.map((s) => s.perSecond)) };
    return {
      notes: [
        `Herald runs with HERALD_ROLE=api, as for ingest: the rows wait for a pump.`,
        `${size.toLocaleString("en-US")} events per round (warm-up ${warmupSize.toLocaleString("en-US")}) in requests of ${EVENTS_PER_REQUEST.toLocaleString("en-US")}, ` +
          `${CONNECTIONS} keep-alive connections with one request in flight each; users from a pool of ${USER_POOL.toLocaleString("en-US")}; ` +
          `each event routes to 3 notifications (push, email, sms), so Herald writes 4 rows and 3 log rows where the baseline writes one.`,
        `Baseline: the same events, ${CONNECTIONS} pg clients each committing one prepared ${ROWS_PER_STATEMENT}-row INSERT … ON CONFLICT DO NOTHING at a time ` +
          `into bench_baseline.events (the ingest baseline's table).`,
      ],
      metrics: [
        {
          metric: "events/s (baseline: rows/s)",
          herald: rate.herald,
          baseline: { name: BASELINE, summary: rate.baseline },
          verdict: { target: "≥ 50 % of baseline", met: rate.herald.median >= 0.5 * rate.baseline.median },
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
