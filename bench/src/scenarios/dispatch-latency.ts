import { createBenchDatabase, openBenchPool } from "../bench-database.ts";
import { describePreset } from "../bench-env.ts";
import { startHerald, type HeraldProcess } from "../herald-process.ts";
import { interleave, type Scenario, type ScenarioContext, type ScenarioOutcome } from "../scenario.ts";
import { sizeOf, warmupSizeOf } from "../sizes.ts";
import { summarize } from "../stats.ts";
import { dispatchServerEnv, heraldRound, prepareDispatchWorkload, type DispatchSample } from "./dispatch.ts";

const LATENCY_MS = 20;
const HERALD = `Herald worker, ${LATENCY_MS} ms provider`;
const BOUND = "concurrency × batch ÷ latency";

export const dispatchLatencyScenario: Scenario = {
  name: "dispatch-20ms",
  summary: `queued → sent as in dispatch, with every sandbox provider call taking ${LATENCY_MS} ms, vs the bound the runner preset allows: concurrency × batch size ÷ latency`,
  run: runDispatchLatency,
};

/**
 * The bound is what the runners could send if the provider's latency were the only cost: each
 * of the `concurrency` batch jobs holds one provider call of up to `batchSize` messages at a
 * time (the dispatcher sends a claimed batch in one call), each call takes the latency. It has
 * no run of its own; the ratio says how much of the waiting Herald overlaps with its own work.
 */
async function runDispatchLatency(ctx: ScenarioContext): Promise<ScenarioOutcome> {
  const size = sizeOf("dispatch", ctx.scale, ctx.tiny);
  const warmupSize = warmupSizeOf(size);
  const preset = ctx.env.preset;
  const concurrency = preset.pushConcurrency + preset.emailConcurrency + preset.smsConcurrency;
  const bound = (concurrency * preset.batchSize * 1000) / LATENCY_MS;
  const db = await createBenchDatabase(ctx.cluster.url, "dispatch_20ms");
  const pool = openBenchPool(db.url, 3, ctx.log);
  let herald: HeraldProcess | null = null;
  try {
    await prepareDispatchWorkload(pool);
    const server = await startHerald({ databaseUrl: db.url, role: "worker", childBase: ctx.env.childBase, env: dispatchServerEnv(preset, LATENCY_MS) });
    herald = server;
    const samples = await interleave<DispatchSample>([{ name: HERALD, run: (n, round) => heraldRound(pool, server, ctx.seed, n, `20ms-${round}`, preset.batchSize) }], {
      size,
      warmupSize,
      repeats: ctx.repeats,
      log: ctx.log,
      describe: (s) => `${Math.round(s.perSecond).toLocaleString("en-US")}/s, ${Math.round(s.jobsPerSecond).toLocaleString("en-US")} jobs/s (${((100 * s.perSecond) / bound).toFixed(1)} % of the bound)`,
    });
    const peakRssMb = server.peakRssMb();
    const h = samples.get(HERALD)!;
    const rate = summarize(h.map((s) => s.perSecond));
    const boundSummary = summarize([bound]);
    return {
      notes: [
        `As dispatch (HERALD_ROLE=worker, sandbox providers, every gate passes), with HERALD_SANDBOX_{PUSH,EMAIL,SMS}_LATENCY_MS=${LATENCY_MS}: ` +
          `each provider call (one per batch job) waits ${LATENCY_MS} ms before it answers; ${describePreset(preset)}.`,
        `Bound: ${concurrency} batch jobs at once × ${preset.batchSize} notifications per call ÷ ${LATENCY_MS} ms = ${Math.round(bound).toLocaleString("en-US")} notifications/s ` +
          `(${Math.round((concurrency * 1000) / LATENCY_MS).toLocaleString("en-US")} provider calls/s). Computed, not run.`,
        `${(3 * Math.ceil(size / 3)).toLocaleString("en-US")} notifications per round, timed as in dispatch.`,
      ],
      metrics: [
        {
          metric: "notifications/s vs the latency bound",
          herald: rate,
          baseline: { name: BOUND, summary: boundSummary },
          verdict: { target: "≥ 80 % of the bound", met: rate.median >= 0.8 * bound },
        },
        { metric: "server CPU (ms per 1,000 notifications)", herald: summarize(h.map((s) => s.serverCpuMs * 1000)), baseline: null, verdict: null },
        { metric: "peak RSS (MiB)", herald: summarize([peakRssMb]), baseline: null, verdict: null },
      ],
      peakRssMb,
    };
  } finally {
    await herald?.stop();
    await pool.end();
    if (!ctx.keepDatabases) await db.drop();
  }
}
