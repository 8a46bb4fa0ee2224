import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The runner settings a worker-role Herald process uses; the bench passes them on explicitly. */
export interface RunnerPreset {
  pushConcurrency: number;
  emailConcurrency: number;
  smsConcurrency: number;
  batchSize: number;
  pumpIntervalMs: number;
  /** Which values came from this shell's HERALD_* variables rather than the server's defaults. */
  overridden: string[];
}

/** Everything the bench reads from its environment; this module is its only reader of process.env. */
export interface BenchEnv {
  /** A server to create the bench databases on; unset: the embedded instance of .herald/bench-pg. */
  databaseUrl: string | undefined;
  embeddedDataDir: string;
  pgRuntimeDir: string;
  /** HERALD_BENCH_TINY=1 shrinks every N (the smoke test). */
  tiny: boolean;
  resultsDir: string;
  /** What every child process inherits (no other variable of this shell leaks into Herald). */
  childBase: Record<string, string>;
  preset: RunnerPreset;
}

// The server's own defaults (apps/server/src/env.ts); printed with every dispatch result.
const PRESET_VARIABLES = {
  pushConcurrency: { env: "HERALD_PUSH_CONCURRENCY", fallback: 4, max: 64 },
  emailConcurrency: { env: "HERALD_EMAIL_CONCURRENCY", fallback: 4, max: 64 },
  smsConcurrency: { env: "HERALD_SMS_CONCURRENCY", fallback: 2, max: 64 },
  batchSize: { env: "HERALD_BATCH_SIZE", fallback: 100, max: 1000 },
  pumpIntervalMs: { env: "HERALD_PUMP_INTERVAL_MS", fallback: 100, max: 60_000 },
} as const;

export function readBenchEnv(source: NodeJS.ProcessEnv = process.env): BenchEnv {
  const overridden: string[] = [];
  const preset = Object.fromEntries(
    Object.entries(PRESET_VARIABLES).map(([key, v]) => {
      const raw = source[v.env];
      if (raw === undefined || raw === "") return [key, v.fallback];
      const value = Number(raw);
      if (!Number.isInteger(value) || value < 1 || value > v.max) {
        throw new Error(`${v.env}=${JSON.stringify(raw)}: expected an integer from 1 to ${v.max}`);
      }
      overridden.push(v.env);
      return [key, value];
    }),
  ) as Omit<RunnerPreset, "overridden">;
  const childBase: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) if (source[name]) childBase[name] = source[name]!;
  // V8's compiled code of the server's modules, kept between the bench's dozen server starts
  // (each spent about 2 s starting; the cache takes a sixth of that off).
  childBase.NODE_COMPILE_CACHE = path.join(REPO_ROOT, ".herald", "node-compile-cache");
  // Profiles every Herald process (and the CLI) the bench starts; each writes a .cpuprofile on exit.
  if (source.HERALD_BENCH_CPU_PROF_DIR) childBase.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${path.resolve(source.HERALD_BENCH_CPU_PROF_DIR)}`;
  return {
    databaseUrl: source.DATABASE_URL || undefined,
    embeddedDataDir: path.join(REPO_ROOT, ".herald", "bench-pg"),
    pgRuntimeDir: source.HERALD_PG_RUNTIME_DIR || "/var/lib/herald",
    tiny: source.HERALD_BENCH_TINY === "1",
    resultsDir: source.HERALD_BENCH_RESULTS_DIR || path.join(REPO_ROOT, "bench", "results"),
    childBase,
    preset: { ...preset, overridden },
  };
}

/** The preset as the HERALD_* variables a Herald process reads. */
export function presetEnv(preset: RunnerPreset): Record<string, string> {
  return Object.fromEntries(
    Object.entries(PRESET_VARIABLES).map(([key, v]) => [v.env, String(preset[key as keyof typeof PRESET_VARIABLES])]),
  );
}

export function describePreset(preset: RunnerPreset): string {
  const total = preset.pushConcurrency + preset.emailConcurrency + preset.smsConcurrency;
  const origin = preset.overridden.length ? `${preset.overridden.join(", ")} from this shell, the rest defaults` : "server defaults";
  return (
    `runner preset: concurrency push ${preset.pushConcurrency} / email ${preset.emailConcurrency} / sms ${preset.smsConcurrency} ` +
    `(${total} batch jobs at once), batch size ${preset.batchSize}, pump interval ${preset.pumpIntervalMs} ms (${origin})`
  );
}
