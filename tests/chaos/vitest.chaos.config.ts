import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `pnpm test:chaos`: every scenario, one file at a time (each starts worker processes, and the
// machine is shared).
export default defineConfig({
  test: {
    name: "chaos",
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["test/**/*.test.ts"],
    globalSetup: ["src/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
