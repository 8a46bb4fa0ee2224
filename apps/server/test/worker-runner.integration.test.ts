import { openDatabase, reapDeadWorkers, type Database } from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import { quickAddJob } from "graphile-worker";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadEnv } from "../src/env.ts";
import { configuredProviders } from "../src/providers/configured-providers.ts";
import { createSettingsCache } from "../src/settings/settings-service.ts";
import { heartbeatIntervalMs, startWorkers } from "../src/workers/worker-runner.ts";

describe("the worker runner", () => {
  let testDatabase: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(inject("templateUrl"));
    database = openDatabase(testDatabase.url);
  });
  async function workerDeps(extraEnv: Record<string, string> = {}) {
    const env = loadEnv({ DATABASE_URL: testDatabase.url, ...extraEnv });
    const settings = createSettingsCache(database, env);
    await settings.get();
    const log = pino({ level: "silent" });
    return { databaseUrl: testDatabase.url, database, env, settings, providers: await configuredProviders(env, database.pool, settings, log), log };
  }

  afterAll(async () => {
    await database.close();
    await testDatabase.drop();
  });

  it("lets an in-flight job finish when stopped, and leaves nothing locked", async () => {
    const events: string[] = [];
    let started!: () => void;
    const jobStarted = new Promise<void>((resolve) => (started = resolve));
    const workers = await startWorkers({
      ...(await workerDeps()),
      extraTasks: {
        slow_job: async () => {
          events.push("started");
          started();
          await new Promise((r) => setTimeout(r, 1500));
          events.push("finished");
        },
      },
    });
    expect(workers.state()).toBe("running");
    await quickAddJob({ connectionString: testDatabase.url }, "slow_job", {});
    await jobStarted;

    await workers.stop();
    events.push("stopped");
    expect(events).toEqual(["started", "finished", "stopped"]);
    expect(workers.state()).toBe("stopped");
    const { rows } = await database.pool.query("SELECT task_identifier, locked_at, locked_by FROM graphile_worker.jobs");
    expect(rows).toEqual([]);
  });

  it("beats often enough that a short silence never declares a live worker dead", async () => {
    expect(heartbeatIntervalMs(45_000)).toBe(10_000);
    expect(heartbeatIntervalMs(2_000)).toBe(500);
    const workers = await startWorkers(await workerDeps({ HERALD_WORKER_SILENCE_MS: "2000" }));
    try {
      // Three silences long: with the old fixed 10 s beat its own heartbeat would be 6 s old here.
      await new Promise((r) => setTimeout(r, 6_000));
      const reaped = await reapDeadWorkers(database.pool, 2_000, 600_000);
      expect(reaped.workers).toEqual([]);
      const { rows } = await database.pool.query("SELECT count(*)::int AS n FROM herald.worker_heartbeats WHERE last_seen_at > now() - interval '2 seconds'");
      expect(rows[0].n).toBe(1);
    } finally {
      await workers.stop();
    }
  });

  it("prunes expired sessions on its schedule's task", async () => {
    const member = await database.prisma.member.create({ data: { email: "p@example.com", name: "P", role: "viewer", passwordHash: "x" } });
    await database.prisma.session.createMany({
      data: [
        { id: "old", memberId: member.id, expiresAt: new Date(Date.now() - 1000) },
        { id: "live", memberId: member.id, expiresAt: new Date(Date.now() + 60_000) },
      ],
    });
    const workers = await startWorkers(await workerDeps());
    await quickAddJob({ connectionString: testDatabase.url }, "prune_sessions", {});
    const deadline = Date.now() + 20_000;
    while ((await database.prisma.session.count()) !== 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await workers.stop();
    expect((await database.prisma.session.findMany()).map((s) => s.id)).toEqual(["live"]);
  });
});
