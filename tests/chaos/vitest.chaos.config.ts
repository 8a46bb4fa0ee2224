import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
/** The files that stop or restart the suite's Postgres: nothing else may run beside them. */
const STOPS_POSTGRES = ["test/postgres-outage.test.ts", "test/load-steady-faults.test.ts"];
const common = { root, globalSetup: ["src/global-setup.ts"], testTimeout: 300_000, hookTimeout: 120_000 };

// `pnpm test:chaos`: every scenario, then the files that take Postgres away, one at a time.
// Most scenarios spend their time waiting (Retry-After, FCM's one-minute quota back-off, a
// dead worker's silent heartbeat, a simulator's latency), so three run at once; each has its
// own database, simulator and worker processes. Run one by one they took over 7 minutes. The
// long settings run one file at a time: they assert latencies, which neighbours would skew.
const parallel = process.env.HERALD_CHAOS_LONG ? 1 : 3;

export default defineConfig({
  test: {
    projects: [
      { test: { ...common, name: "chaos", include: ["test/**/*.test.ts"], exclude: STOPS_POSTGRES, maxWorkers: parallel, sequence: { groupOrder: 0 } } },
      { test: { ...common, name: "chaos-postgres", include: STOPS_POSTGRES, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
