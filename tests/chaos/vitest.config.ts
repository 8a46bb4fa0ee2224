import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// In the unit suite (`pnpm test`): every scenario at its small size but three, asserting safety
// properties only (the checker's own test too, so the harness never rots). `pnpm test:chaos`
// (vitest.chaos.config.ts) runs every file and prints the summary table; `--long` runs the long
// settings. Out of CI until their open defects are fixed (docs/reliability.md, "Open defects"):
// postgres-outage and load-steady (a Postgres restart can crash a worker inside graphile-worker:
// the batches it stranded in flight are fixed), and load-ses-rate (its 429 bound is
// timing-sensitive).
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
      "test/load-burst.test.ts",
      "test/load-broadcast.test.ts",
    ],
    globalSetup: ["src/global-setup.ts"],
    // One file at a time: each starts worker processes on a shared 2-core machine.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
