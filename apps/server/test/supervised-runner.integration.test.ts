import { openDatabase, type Database } from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import { Logger, quickAddJob, type Task } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { superviseRunner } from "../src/workers/supervised-runner.ts";
import { capturedLog, databaseOutage } from "./support/database-outage.ts";

describe("a supervised runner", () => {
  let testDatabase: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(inject("templateUrl"));
    database = openDatabase(testDatabase.url);
  });
  afterAll(async () => {
    await database.close();
    await testDatabase.drop();
  });

  // postgres-outage's stranded email batches (docs/reliability.md): two jobs of one pool ended
  // while the server was gone, so two of its batched writes failed in turn. graphile-worker 0.18's
  // batcher then counted its pending writes below zero and its release never resolved: the pool,
  // shutting down since the first failure, never exited, so it was neither restarted nor were its
  // jobs released (locked for four hours). Fixed by patches/graphile-worker@0.18.0.patch.
  it("exits and starts again when two finished jobs in turn could not be recorded, and frees what its pool held", async () => {
    const outage = await databaseOutage(testDatabase.url);
    const { lines, log, count, step } = capturedLog();
    const logger = new Logger(() => (level, message) => void lines.push(`graphile-worker ${level}: ${message}\n`));

    // Each job waits on its first run until told to finish; "c" then fails, the others succeed.
    const runs: string[] = [];
    const finishers = new Map<string, () => void>();
    const heldJob: Task = async (payload) => {
      const { id } = payload as { id: string };
      runs.push(id);
      if (runs.filter((r) => r === id).length > 1) return;
      await new Promise<void>((resolve) => finishers.set(id, resolve));
      if (id === "c") throw new Error("c failed while the database was away");
    };
    const finish = (id: string) => finishers.get(id)?.();

    const runner = await superviseRunner(
      {
        connectionString: testDatabase.url,
        maxPoolSize: 5,
        concurrency: 3,
        taskList: { held_job: heldJob },
        noHandleSignals: true,
        pollInterval: 500,
        logger,
        preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
      },
      { log },
    );
    try {
      for (const id of ["a", "b", "c"]) await quickAddJob({ pgPool: database.pool }, "held_job", { id });
      await step("three jobs running", () => finishers.size === 3, 15_000);

      await outage.begin();
      // The first completion fails: the pool begins its graceful shutdown, and waits for "c".
      finish("a");
      await step("a's completion refused", () => count("Failed to complete jobs") === 1, 15_000);
      // The second fails on the same batcher, after the first.
      finish("b");
      await step("b's completion refused", () => count("Failed to complete jobs") === 2, 15_000);
      // The last job ends (its failure goes to the other batcher): the pool can now finish.
      finish("c");
      await step("the runner exited", () => count("worker runner exited; starting it again") === 1, 20_000);
      expect(runner.healthy()).toBe(false);

      await outage.end();
      await step("the exited pool's jobs released", () => count("released the jobs of an exited worker runner") === 1, 30_000);
      await step("every job run again and recorded", async () => (await database.pool.query("SELECT 1 FROM graphile_worker.jobs")).rowCount === 0, 20_000);
      expect([...runs].sort()).toEqual(["a", "a", "b", "b", "c", "c"]);
      expect(runner.healthy()).toBe(true);
    } finally {
      for (const id of ["a", "b", "c"]) finish(id);
      await outage.end();
      await outage.close();
      // Bounded: a runner stuck in its shutdown (the defect) would hold the file open for good.
      await Promise.race([runner.stop(), new Promise((r) => setTimeout(r, 10_000).unref())]);
    }
  }, 120_000);
});
