import { SCALES, type Scale } from "./scenario.ts";

export interface BenchArgs {
  scale: Scale;
  /** Scenario names to run; null: all of them. */
  only: string[] | null;
  repeats: number;
  keepDatabases: boolean;
}

export const USAGE = `Usage: pnpm bench [--scale small|medium|large] [--only NAME,…] [--repeat N] [--keep-databases]

  --scale           sizes of every scenario (default small: about 3 minutes on an idle 2-core machine)
  --only            run only these scenarios, e.g. --only ingest,dispatch
  --repeat          measured rounds per contender after the warm-up (default 3, at least 3)
  --keep-databases  leave each scenario's herald_bench_* database behind for inspection

Environment: DATABASE_URL (else the embedded Postgres of .herald/bench-pg), HERALD_BENCH_TINY=1
(shrink every N, for the smoke test), HERALD_BENCH_RESULTS_DIR (default bench/results), and the
runner preset HERALD_PUSH_CONCURRENCY, HERALD_EMAIL_CONCURRENCY, HERALD_SMS_CONCURRENCY,
HERALD_BATCH_SIZE, HERALD_PUMP_INTERVAL_MS (default: the server's defaults).`;

export class UsageError extends Error {
  override name = "UsageError";
}

export function parseArgs(argv: readonly string[], known: readonly string[]): BenchArgs {
  const args: BenchArgs = { scale: "small", only: null, repeats: 3, keepDatabases: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split("=", 2) as [string, string | undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--scale": {
        const scale = value();
        if (!SCALES.includes(scale as Scale)) throw new UsageError(`--scale "${scale}": expected one of ${SCALES.join(", ")}`);
        args.scale = scale as Scale;
        break;
      }
      case "--only": {
        const names = value().split(",").map((s) => s.trim()).filter(Boolean);
        const unknown = names.filter((n) => !known.includes(n));
        if (unknown.length > 0) throw new UsageError(`--only: unknown scenario ${unknown.join(", ")}; scenarios are ${known.join(", ")}`);
        args.only = names;
        break;
      }
      case "--repeat": {
        const raw = value();
        const n = Number(raw);
        if (!Number.isInteger(n) || n < 3 || n > 50) throw new UsageError(`--repeat "${raw}": expected an integer from 3 to 50`);
        args.repeats = n;
        break;
      }
      case "--keep-databases":
        args.keepDatabases = true;
        break;
      case "--":
        break;
      default:
        throw new UsageError(`unknown argument "${argv[i]}"`);
    }
  }
  return args;
}
