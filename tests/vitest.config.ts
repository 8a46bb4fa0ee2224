import { fileURLToPath } from "node:url";
import { configDefaults, defineProject } from "vitest/config";

// Repository-level checks (Dockerfile, compose file, a fresh clone): they build and start Herald
// from scratch, so they are slow and need only node builtins, git, psql and docker-compose.
export default defineProject({
  test: {
    name: "repo",
    // Run standalone (--config tests/vitest.config.ts) the root is the working directory: look only here.
    dir: fileURLToPath(new URL(".", import.meta.url)),
    include: ["**/*.test.ts"],
    // tests/browser has its own config (vitest.browser.config.ts): it needs Chromium and a web build.
    // tests/chaos is a project of its own (its smoke scenario runs in the unit suite).
    exclude: [...configDefaults.exclude, "browser/**", "chaos/**"],
    testTimeout: 600_000,
    hookTimeout: 900_000,
  },
});
