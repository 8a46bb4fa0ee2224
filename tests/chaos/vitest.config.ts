import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// In the unit suite (`pnpm test`): every scenario at its small size, asserting safety properties
// only (the checker's own test too, so the harness never rots). `pnpm test:chaos`
// (vitest.chaos.config.ts) runs every file and prints the summary table; `--long` runs the long
// settings.
export default defineProject({
  test: {
    name: "chaos",
    dir: fileURLToPath(new URL(".", import.meta.url)),
    include: ["test/**/*.test.ts"],
    globalSetup: ["src/global-setup.ts"],
    // One file at a time: each starts worker processes on a shared 2-core machine.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
