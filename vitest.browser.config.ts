import { defineConfig } from "vitest/config";
import { testReporters } from "./vitest.reporters.ts";

// User flows in real headless Chromium against the real server and the built dashboard.
export default defineConfig({
  test: {
    name: "browser",
    include: ["tests/browser/**/*.test.ts"],
    globalSetup: ["tests/browser/support/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: testReporters("browser"),
  },
});
