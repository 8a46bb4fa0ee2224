import { databaseTime, openDatabase, type Database } from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { databaseClock } from "../src/workers/database-clock.ts";

describe("the database clock a worker schedules by", () => {
  let testDatabase: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(inject("templateUrl"));
    database = openDatabase(testDatabase.url);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await database?.close();
    await testDatabase?.drop();
  });

  it("tells the database's time from a process clock 10 minutes off, and follows it when it is stepped", async () => {
    const realNow = Date.now.bind(Date);
    const skew = vi.spyOn(Date, "now").mockImplementation(() => realNow() + 10 * 60_000);
    const clock = await databaseClock(database.pool);
    const near = async () => Math.abs(clock.now().getTime() - (await databaseTime(database.pool)).getTime());
    expect(await near()).toBeLessThan(1000);

    // NTP steps this process's clock back 20 minutes: the next heartbeat's sync catches up.
    skew.mockImplementation(() => realNow() - 10 * 60_000);
    expect(await near()).toBeGreaterThan(10 * 60_000);
    await clock.sync();
    expect(await near()).toBeLessThan(1000);
  });
});
