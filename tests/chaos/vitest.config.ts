import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// In the unit suite (`pnpm test`): every scenario at its small size, each within about 20 s,
// asserting safety properties only (the checker's own test too, so the harness never rots).
// `pnpm test:chaos` (vitest.chaos.config.ts) runs the same files and prints the summary table;
// `--long` lengthens the outages and storms.
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
      // Skips its outages when DATABASE_URL names the server: it stops the one it runs on.
      "test/postgres-outage.test.ts",
      "test/hangs-timeouts.test.ts",
      "test/clock-skew.test.ts",
      "test/standalone-simulator.test.ts",
      "test/webhook-replay.test.ts",
      "test/webhook-flood.test.ts",
    ],
    globalSetup: ["src/global-setup.ts"],
    // One file at a time: each starts worker processes, and the outage scenarios stop the server
    // every file of this project runs on.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
