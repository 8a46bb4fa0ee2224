import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// In the unit suite (`pnpm test`): the smoke scenario, the checker's own test (so the harness
// never rots), opt-outs committed mid-run (Herald's consent promise, checked in CI) and the
// webhook scenarios at their small size. The fault scenarios run with `pnpm test:chaos`
// (vitest.chaos.config.ts).
export default defineProject({
  test: {
    name: "chaos",
    dir: fileURLToPath(new URL(".", import.meta.url)),
    include: ["test/smoke.test.ts", "test/invariants.test.ts", "test/consent-mid-run.test.ts", "test/webhook-replay.test.ts", "test/webhook-flood.test.ts"],
    globalSetup: ["src/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
