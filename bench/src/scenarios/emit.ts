import { NotificationTypeInputSchema } from "@herald/core";
import { upsertCategory, upsertNotificationType } from "@herald/db";
import pg from "pg";
import { runSingleRowInserts, SINGLE_ROW_INSERT_SCHEMA } from "../../baselines/single-row-insert.ts";
import { createBenchDatabase, openBenchPool, walBytes } from "../bench-database.ts";
import { interleave, type Scenario, type ScenarioContext, type ScenarioOutcome } from "../scenario.ts";
import { sizeOf, warmupSizeOf } from "../sizes.ts";
import { percentile, summarize } from "../stats.ts";
import { BENCH_CATEGORY, BENCH_NOTIFICATION_TYPE, BENCH_TYPE, generateEvents, USER_POOL, type BenchEvent } from "../workload.ts";
import { checkEverythingLanded } from "./ingest.ts";

const CLIENTS = 16;
const HERALD = "Herald herald.emit in a transaction";
const BASELINE = "single-row INSERT";

const EMIT = { name: "bench_emit", text: "SELECT notification_id FROM herald.emit($1, $2, $3, $4::jsonb)" };

interface EmitSample {
  perSecond: number;
  p95Ms: number;
  walBytes: number;
}

export const emitScenario: Scenario = {
  name: "emit",
  summary: `BEGIN; SELECT herald.emit(…); COMMIT from ${CLIENTS} pg clients (the transactional outbox) vs single-row INSERT transactions from ${CLIENTS} pg clients`,
  run: runEmit,
};

async function runEmit(ctx: ScenarioContext): Promise<ScenarioOutcome> {
  const size = sizeOf("emit", ctx.scale, ctx.tiny);
  const warmupSize = warmupSizeOf(size);
  const db = await createBenchDatabase(ctx.cluster.url, "emit");
  const pool = openBenchPool(db.url, 1, ctx.log);
  try {
    // No server: business code calls the SQL function on its own connection. The configuration
    // is the ingest scenario's, written with the same db functions the REST API uses.
    await upsertCategory(pool, BENCH_CATEGORY, { label: "Bench" });
    await upsertNotificationType(pool, BENCH_TYPE, NotificationTypeInputSchema.parse(BENCH_NOTIFICATION_TYPE).channels);
    await pool.query("INSERT INTO herald.users (external_id) SELECT 'u' || i FROM generate_series(0, $1::int - 1) i", [USER_POOL]);
    await pool.query(SINGLE_ROW_INSERT_SCHEMA);

    const samples = await interleave<EmitSample>(
      [
        {
          name: HERALD,
          run: async (n, round) => {
            const walBefore = await walBytes(pool);
            const result = await emitConcurrently(db.url, generateEvents(ctx.seed, `emit-${round}`, n), CLIENTS);
            return { ...sampleOf(n, result.durationMs, result.latenciesMs), walBytes: ((await walBytes(pool)) - walBefore) / n };
          },
        },
        {
          name: BASELINE,
          run: async (n, round) => {
            const walBefore = await walBytes(pool);
            const result = await runSingleRowInserts(db.url, generateEvents(ctx.seed, `emit-${round}`, n), CLIENTS);
            return { ...sampleOf(n, result.durationMs, result.latenciesMs), walBytes: ((await walBytes(pool)) - walBefore) / n };
          },
        },
      ],
      {
        size,
        warmupSize,
        repeats: ctx.repeats,
        log: ctx.log,
        describe: (s) => `${Math.round(s.perSecond).toLocaleString("en-US")}/s, p95 ${s.p95Ms.toFixed(1)} ms, WAL ${(s.walBytes / 1024).toFixed(1)} KiB/event`,
      },
    );
    await checkEverythingLanded(db.url, warmupSize + ctx.repeats * size);

    const h = samples.get(HERALD)!;
    const b = samples.get(BASELINE)!;
    const rate = { herald: summarize(h.map((s) => s.perSecond)), baseline: summarize(b.map((s) => s.perSecond)) };
    return {
      notes: [
        `No Herald process: ${CLIENTS} pg clients each run BEGIN, SELECT … FROM herald.emit(eventId, type, userId, data) (prepared), COMMIT per event — ` +
          `three round trips, as business code adds the call to its own transaction. Each event routes to 3 notifications (push, email, sms).`,
        `${size.toLocaleString("en-US")} events per round (warm-up ${warmupSize.toLocaleString("en-US")}), users from a pool of ${USER_POOL.toLocaleString("en-US")} (created beforehand).`,
        `Baseline: the ingest scenario's — the same pg driver, ${CLIENTS} clients, one autocommit INSERT … ON CONFLICT DO NOTHING per event into bench_baseline.events.`,
      ],
      metrics: [
        {
          metric: "events/s (baseline: commits/s)",
          herald: rate.herald,
          baseline: { name: BASELINE, summary: rate.baseline },
          verdict: { target: "≥ 60 % of baseline", met: rate.herald.median >= 0.6 * rate.baseline.median },
        },
        {
          metric: "p95 latency (ms)",
          herald: summarize(h.map((s) => s.p95Ms)),
          baseline: { name: BASELINE, summary: summarize(b.map((s) => s.p95Ms)) },
          verdict: null,
        },
        {
          metric: "WAL written (KiB per event)",
          herald: summarize(h.map((s) => s.walBytes / 1024)),
          baseline: { name: BASELINE, summary: summarize(b.map((s) => s.walBytes / 1024)) },
          verdict: null,
        },
      ],
      // Runs in the bench process: no server to measure.
      peakRssMb: 0,
    };
  } finally {
    await pool.end();
    if (!ctx.keepDatabases) await db.drop();
  }
}

function sampleOf(n: number, durationMs: number, latenciesMs: Float64Array): Omit<EmitSample, "walBytes"> {
  return { perSecond: n / (durationMs / 1000), p95Ms: percentile(latenciesMs, 95) };
}

/** `concurrency` connections (opened before the clock starts), each emitting one event per transaction. */
async function emitConcurrently(url: string, events: readonly BenchEvent[], concurrency: number): Promise<{ durationMs: number; latenciesMs: Float64Array }> {
  const clients = Array.from({ length: concurrency }, () => new pg.Client({ connectionString: url, application_name: "bench-emit" }));
  await Promise.all(clients.map((c) => c.connect()));
  try {
    const latencies = new Float64Array(events.length);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      clients.map(async (client) => {
        for (;;) {
          const i = next++;
          if (i >= events.length) return;
          const e = events[i]!;
          const t = performance.now();
          await client.query("BEGIN");
          const { rowCount } = await client.query({ ...EMIT, values: [e.eventId, e.type, e.userId, JSON.stringify(e.data)] });
          await client.query("COMMIT");
          latencies[i] = performance.now() - t;
          if (rowCount !== 3) throw new Error(`herald.emit returned ${rowCount} notifications for event ${e.eventId}, expected 3`);
        }
      }),
    );
    return { durationMs: performance.now() - started, latenciesMs: latencies };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}
