import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// In the unit suite (`pnpm test`): the smoke scenario, the checker's own test (so the harness
// never rots), opt-outs committed mid-run (Herald's consent promise, checked in CI) and the load
// scenarios at their small sizes. The fault scenarios run with `pnpm test:chaos`
// (vitest.chaos.config.ts).
export default defineProject({
  test: {
    name: "chaos",
    dir: fileURLToPath(new URL(".", import.meta.url)),
    include: [
      "test/smoke.test.ts",
      "test/invariants.test.ts",
      "test/consent-mid-run.test.ts",
      "test/load-steady.test.ts",
      "test/load-burst.test.ts",
      "test/load-broadcast.test.ts",
      "test/load-ses-rate.test.ts",
    ],
    globalSetup: ["src/global-setup.ts"],
    // One file at a time: load-steady restarts the suite's own Postgres, which must not cut the
    // connections of a scenario running beside it (the other projects use their own cluster).
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
