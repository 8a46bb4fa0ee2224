import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// In the unit suite (`pnpm test`): every scenario at its small size but the Postgres outages,
// asserting safety properties only (the checker's own test too, so the harness never rots).
// `pnpm test:chaos` (vitest.chaos.config.ts) runs every file, the outages included, and prints
// the summary table; `--long` runs the long settings. The outage file stays out of CI while a
// restart can leave email batches stuck in flight (docs/reliability.md, "Open defects").
export default defineProject({
  test: {
    name: "chaos",
    dir: fileURLToPath(new URL(".", import.meta.url)),
    include: [
      "test/smoke.test.ts",
      "test/invariants.test.ts",
      "test/consent-mid-run.test.ts",
      "test/kill9.test.ts",
      "test/sigterm.test.ts",
      "test/credentials-outage.test.ts",
      "test/throttle-storm.test.ts",
      "test/poison.test.ts",
      "test/hangs-timeouts.test.ts",
      "test/clock-skew.test.ts",
      "test/standalone-simulator.test.ts",
      "test/webhook-replay.test.ts",
      "test/webhook-flood.test.ts",
      "test/load-steady.test.ts",
      "test/load-burst.test.ts",
      "test/load-broadcast.test.ts",
      "test/load-ses-rate.test.ts",
    ],
    globalSetup: ["src/global-setup.ts"],
    // One file at a time: each starts worker processes, and load-steady restarts the suite's own
    // Postgres, which must not cut the connections of a scenario running beside it.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
