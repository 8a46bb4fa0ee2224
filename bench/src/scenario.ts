import { settleDrops, type BenchCluster } from "./bench-database.ts";
import type { BenchEnv } from "./bench-env.ts";
import type { Summary } from "./stats.ts";

export type Scale = "small" | "medium" | "large";
export const SCALES: readonly Scale[] = ["small", "medium", "large"];

/** What every scenario gets from the harness. */
export interface ScenarioContext {
  scale: Scale;
  /** HERALD_BENCH_TINY=1: sizes shrunk for the smoke test. */
  tiny: boolean;
  repeats: number;
  cluster: BenchCluster;
  env: BenchEnv;
  keepDatabases: boolean;
  /** Seeds every generator, so two runs of one scale generate the same data. */
  seed: number;
  /** The peak server RSS each scenario run before this one recorded (0: it ran no server). */
  peakRssSoFar: ReadonlyArray<{ name: string; peakRssMb: number }>;
  log(message: string): void;
}

/** A goal a metric is held to, and whether this run met it. */
export interface Verdict {
  target: string;
  met: boolean;
}

/** One row of the results table. */
export interface Metric {
  metric: string;
  /** Herald's repetitions, or null for a baseline-only row. */
  herald: Summary | null;
  baseline: { name: string; summary: Summary } | null;
  /** Null: reported, not judged. */
  verdict: Verdict | null;
}

export interface ScenarioOutcome {
  /** How it ran: role, sizes, preset, anything a reader needs to trust the numbers. */
  notes: string[];
  metrics: Metric[];
  /** Peak resident memory of the Herald server process over the whole scenario, MiB. */
  peakRssMb: number;
}

export interface Scenario {
  name: string;
  /** One line: what is measured, against what. */
  summary: string;
  run(ctx: ScenarioContext): Promise<ScenarioOutcome>;
}

/** A scenario of the benchmark issue that has no implementation yet. */
export interface PlannedScenario {
  name: string;
  summary: string;
  run: null;
}

export interface Contender<T> {
  name: string;
  /** One measured run of `size` units; `round` names it (warm-up, 1, 2, …) for unique data. */
  run(size: number, round: string): Promise<T>;
}

/**
 * A warm-up of every contender (none when `warmupSize` is 0: a scenario whose every round starts
 * a fresh server has nothing a warm-up would warm), then `repeats` rounds in which each runs
 * once in turn (H, B, H, B, …), so drift in the machine (page cache, autovacuum, a neighbour)
 * hits all of them alike. Waits first for the databases earlier scenarios dropped (a drop forces a
 * checkpoint). Returns each contender's measured samples in round order.
 */
export async function interleave<T>(
  contenders: ReadonlyArray<Contender<T>>,
  options: { size: number; warmupSize: number; repeats: number; log: (message: string) => void; describe: (sample: T) => string },
): Promise<Map<string, T[]>> {
  await settleDrops();
  const warmupStarted = performance.now();
  for (const c of options.warmupSize > 0 ? contenders : []) {
    const sample = await c.run(options.warmupSize, "warmup");
    options.log(`  warm-up  ${c.name.padEnd(28)} ${options.describe(sample)}`);
  }
  const roundsStarted = performance.now();
  spent.warmupMs += roundsStarted - warmupStarted;
  const samples = new Map<string, T[]>(contenders.map((c) => [c.name, []]));
  for (let round = 1; round <= options.repeats; round++) {
    for (const c of contenders) {
      const sample = await c.run(options.size, String(round));
      samples.get(c.name)!.push(sample);
      options.log(`  round ${round}  ${c.name.padEnd(28)} ${options.describe(sample)}`);
    }
  }
  spent.roundsMs += performance.now() - roundsStarted;
  return samples;
}

/** Where a scenario's wall time went, seconds: the rest of it is setup and teardown. */
export interface TimeSpent {
  wallSeconds: number;
  warmupSeconds: number;
  roundsSeconds: number;
}

// Kept here rather than threaded through every scenario's call to interleave: one scenario runs at a time.
const spent = { warmupMs: 0, roundsMs: 0 };

/** Times a scenario's run, splitting off what its calls to `interleave` spent warming up and in rounds. */
export async function timed<T>(run: () => Promise<T>): Promise<{ value: T; time: TimeSpent }> {
  spent.warmupMs = 0;
  spent.roundsMs = 0;
  const started = performance.now();
  const value = await run();
  return {
    value,
    time: { wallSeconds: (performance.now() - started) / 1000, warmupSeconds: spent.warmupMs / 1000, roundsSeconds: spent.roundsMs / 1000 },
  };
}
