import { defineConfig } from "vitest/config";
import { testReporters } from "./vitest.reporters.ts";

// Unit and integration tests. Browser tests have their own config (vitest.browser.config.ts) so
// this suite needs neither Chromium nor a web build.
export default defineConfig({
  test: {
    projects: ["packages/core", "packages/db", "apps/server", "tests", "tests/chaos", "bench"],
    reporters: testReporters("unit"),
  },
});
