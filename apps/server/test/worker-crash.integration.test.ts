import { ingestEvents, openDatabase, type Database } from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { eventually } from "./support/rest.ts";
import { spawnEntry, type RunningProcess } from "./support/server-process.ts";

const COUNT = 1000;

describe("a worker killed with SIGKILL mid-batch", () => {
  let testDatabase: TestDatabase;
  let database: Database;
  const workers: RunningProcess[] = [];

  beforeAll(async () => {
    testDatabase = await createTestDatabase(inject("templateUrl"));
    database = openDatabase(testDatabase.url);
  });
  afterAll(async () => {
    for (const w of workers) w.child.kill("SIGKILL");
    await database.close();
    await testDatabase.drop();
  });

  function startWorker(): RunningProcess {
    const worker = spawnEntry("main", [], {
      DATABASE_URL: testDatabase.url,
      HERALD_ROLE: "worker",
      HERALD_LOG_LEVEL: "warn",
      HERALD_SMS_CONCURRENCY: "2",
      HERALD_SANDBOX_SMS_LATENCY_MS: "150",
      HERALD_SANDBOX_DELIVERY_DELAY_MS: "3600000",
      HERALD_WORKER_SILENCE_MS: "2000",
    });
    workers.push(worker);
    return worker;
  }

  const count = async (sql: string) => Number((await database.pool.query(sql)).rows[0].n);

  it("loses nothing: after a restart every notification settles, duplicates only from sends caught mid-call", async () => {
    await database.pool.query(`
      INSERT INTO herald.categories (key, label) VALUES ('news', 'News');
      INSERT INTO herald.notification_types (type, channels) VALUES
        ('news', '[{"channel": "sms", "category": "news", "content": {"body": "news"}}]');
      INSERT INTO herald.users (external_id, phone) SELECT 'u-' || g, '+49151' || lpad(g::text, 8, '0') FROM generate_series(1, ${COUNT}) g;`);
    await ingestEvents(database.pool, Array.from({ length: COUNT }, (_, i) => ({ eventId: `n-${i}`, type: "news", userId: `u-${i + 1}` })));

    const first = startWorker();
    await eventually(() => count("SELECT count(*) AS n FROM herald.sandbox_messages"), (n) => n >= 200, "sending to be under way", 60_000);
    first.child.kill("SIGKILL");
    await first.exit;
    const inFlightAtKill = await count("SELECT count(*) AS n FROM herald.notifications WHERE dispatch_state = 'in_flight'");
    // Wait out the silence, then a new worker frees the dead one's jobs at start.
    await new Promise((r) => setTimeout(r, 2500));
    const second = startWorker();

    await eventually(() => count("SELECT count(*) AS n FROM herald.notifications WHERE status = 'pending'"), (n) => n === 0, "every notification to settle", 90_000);
    expect(await count("SELECT count(*) AS n FROM herald.notifications WHERE status <> 'sent'")).toBe(0);
    expect(await count("SELECT count(DISTINCT notification_id) AS n FROM herald.sandbox_messages")).toBe(COUNT);
    const duplicates = await count("SELECT count(*) - count(DISTINCT notification_id) AS n FROM herald.sandbox_messages");
    // Only a send the provider accepted before the kill but Herald had not yet recorded can repeat.
    expect(duplicates).toBeLessThanOrEqual(inFlightAtKill);
    // Stopped gracefully, the surviving worker leaves no job locked (the dead one's were freed).
    second.child.kill("SIGTERM");
    expect(await second.exit).toBe(0);
    expect(await count("SELECT count(*) AS n FROM graphile_worker._private_jobs WHERE locked_at IS NOT NULL")).toBe(0);
    console.log(`worker crash: ${inFlightAtKill} in flight at the kill, ${duplicates} duplicate sandbox send(s)`);
    // Its own waits (60 s for sending to start, 90 s to settle) bound it, not the suite's 60 s
    // default: on a loaded machine the two together outlast that.
  }, 180_000);
});
