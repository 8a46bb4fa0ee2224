import { ingestEvents } from "@herald/db";
import { describe, expect, it } from "vitest";
import { eventually } from "./support/rest.ts";
import { useTestServer } from "./support/test-server.ts";

// The prune_expired task as the worker runner schedules it, with HERALD_RETENTION_DAYS pinned.

describe("the prune_expired task", () => {
  const server = useTestServer({ withWorkers: true, env: { HERALD_RETENTION_DAYS: "30" } });

  it("deletes what is older than the retention setting once the rollup has counted it, and keeps the rest", async () => {
    const pool = server.database.pool;
    await pool.query(`
      INSERT INTO herald.categories (key, label) VALUES ('news', 'News');
      INSERT INTO herald.notification_types (type, channels) VALUES
        ('news.email', '[{"channel": "email", "category": "news", "content": {"subject": "Hi", "body": "Hello"}}]');`);
    const results = await ingestEvents(pool, Array.from({ length: 6 }, (_, i) => ({ eventId: `ev-${i}`, type: "news.email", userId: `u-${i}` })));
    const ids = results.map((r) => r.notifications[0]!.id).sort((a, b) => Number(a) - Number(b));
    const old = ids.slice(0, 4);
    // Settled (no address: skipped by the gate) and 31 days old; the rollup reads their events.
    await eventually(
      async () => (await pool.query("SELECT count(*)::int AS n FROM herald.notifications WHERE dispatch_state = 'done'")).rows[0].n,
      (n) => n === 6,
      "the dispatcher to settle every notification",
    );
    await pool.query("UPDATE herald.notifications SET created_at = created_at - interval '31 days' WHERE id = ANY ($1::bigint[])", [old]);
    await pool.query("SELECT graphile_worker.add_job('roll_up_analytics', '{}'::json)");
    await eventually(
      async () => (await pool.query("SELECT last_event_id >= (SELECT max(id) FROM herald.notification_events) AS done FROM herald.analytics_state")).rows[0].done,
      (done) => done === true,
      "the rollup to read every event",
    );
    await pool.query("SELECT graphile_worker.add_job('prune_expired', '{}'::json)");
    const left = await eventually(
      async () => (await pool.query("SELECT n.id::text AS id FROM herald.notifications n ORDER BY n.id")).rows.map((r) => r.id),
      (rows) => rows.length === 2,
      "prune_expired to delete the four old notifications",
    );
    expect(left).toEqual(ids.slice(4));
  });
});
