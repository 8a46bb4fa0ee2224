import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { configureBucket, openDatabase } from "@herald/db";
import { createTestDatabase } from "@herald/db/testing";
import { describe, expect, inject, it } from "vitest";
import { REPO_ROOT } from "./support/server-process.ts";

const run = promisify(execFile);

describe("the provider token bucket across processes", () => {
  it("holds 20/s for three worker processes sharing it: never above 22/s over 10 s", async () => {
    const testDatabase = await createTestDatabase(inject("templateUrl"));
    const database = openDatabase(testDatabase.url);
    try {
      await configureBucket(database.pool, "sms-primary", 20, 20);
      const processes = Array.from({ length: 3 }, () =>
        run(process.execPath, ["apps/server/test/fixtures/take-tokens.ts", testDatabase.url, "sms-primary", "11000"], {
          cwd: REPO_ROOT,
        }),
      );
      const grants = (await Promise.all(processes)).flatMap((p) => JSON.parse(p.stdout) as Array<[number, number]>);
      const start = Math.min(...grants.map(([at]) => at));
      const inWindow = grants.filter(([at]) => at < start + 10_000).reduce((sum, [, n]) => sum + n, 0);
      // The bucket starts full (burst 20), then refills 20/s: 20 + 10 × 20 = 220 tokens in 10 s.
      expect(inWindow).toBeLessThanOrEqual(220);
      // It is a pace, not a stall: the three together got most of what the rate allows.
      expect(inWindow).toBeGreaterThan(150);
      const perProcess = (await Promise.all(processes)).map((p) => (JSON.parse(p.stdout) as unknown[]).length);
      expect(perProcess.every((n) => n > 0)).toBe(true);
    } finally {
      await database.close();
      await testDatabase.drop();
    }
  });
});
