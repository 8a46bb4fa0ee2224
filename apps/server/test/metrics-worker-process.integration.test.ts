import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { spawnEntry, waitFor } from "./support/server-process.ts";
import { freePort } from "@herald/db/testing";

const TOKEN = "metrics-token-0123456789";

describe("a worker-only process", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(inject("templateUrl"));
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("serves /metrics (its own sends live in its memory) and nothing else, and none of it without the token", async () => {
    const port = await freePort();
    const run = spawnEntry("main", [], { DATABASE_URL: database.url, PORT: String(port), HOST: "127.0.0.1", HERALD_ROLE: "worker", HERALD_METRICS_TOKEN: TOKEN });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitFor(async () => (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).ok, "the worker's /metrics");
      const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      expect(text).toContain("# TYPE herald_sends_total counter");
      expect(text).toMatch(/^herald_queue_depth\{channel="push",lane="critical",state="waiting"\} 0$/m);
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/healthz`)).status).toBe(404);
      expect((await fetch(`${base}/trpc/auth.me`)).status).toBe(404);
    } finally {
      run.child.kill("SIGTERM");
      expect(await run.exit).toBe(0);
    }
  });
});
