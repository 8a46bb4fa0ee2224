import { openDatabase, type Database } from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import { quickAddJob } from "graphile-worker";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadEnv } from "../src/env.ts";
import { configuredProviders } from "../src/providers/configured-providers.ts";
import { createSettingsCache } from "../src/settings/settings-service.ts";
import { startWorkers } from "../src/workers/worker-runner.ts";

describe("the worker runner", () => {
  let testDatabase: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(inject("templateUrl"));
    database = openDatabase(testDatabase.url);
  });
  async function workerDeps() {
    const env = loadEnv({ DATABASE_URL: testDatabase.url });
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
