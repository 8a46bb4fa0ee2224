import pg from "pg";
import { describe, expect, it } from "vitest";
import { ingestEvents } from "../src/ingest/ingest-events.ts";
import { routeType } from "./support/fixtures.ts";
import { useTestDatabase } from "./support/test-database.ts";

describe("herald.ingest_events", () => {
  const test = useTestDatabase();

  it("creates one notification per channel, logs 'created', and creates a bare user", async () => {
    const sql = test.db.pool;
    await routeType(sql, "order.paid", [{ channel: "push" }, { channel: "email" }, { channel: "sms", lane: "critical" }]);
    const [result] = await ingestEvents(sql, [{ eventId: "order-1-paid", type: "order.paid", userId: "u-1", data: { total: 12 } }]);
    expect(result!.outcome).toBe("created");
    expect(result!.notifications.map((n) => [n.channel, n.status])).toEqual([
      ["push", "pending"],
      ["email", "pending"],
      ["sms", "pending"],
    ]);
    const { rows } = await sql.query(
      `SELECT n.dedup_key, n.lane, n.vars, n.dispatch_state, u.external_id,
              (SELECT array_agg(type) FROM herald.notification_events e WHERE e.notification_id = n.id) AS events
         FROM herald.notifications n JOIN herald.users u ON u.id = n.user_id ORDER BY n.id`,
    );
    expect(rows.map((r) => r.dedup_key.replace(/:\d+:/, ":U:"))).toEqual(["order-1-paid:U:push", "order-1-paid:U:email", "order-1-paid:U:sms"]);
    expect(rows.map((r) => r.lane)).toEqual(["bulk", "bulk", "critical"]);
    expect(rows.every((r) => r.external_id === "u-1" && r.dispatch_state === "queued" && r.vars.total === 12)).toBe(true);
    expect(rows.map((r) => r.events)).toEqual([["created"], ["created"], ["created"]]);
  });

  it("answers a replay with the first call's notifications and a changed payload with a conflict", async () => {
    const sql = test.db.pool;
    await routeType(sql, "otp", [{ channel: "sms" }]);
    const event = { eventId: "otp-7", type: "otp", userId: "u-7", data: { code: "123456" } };
    const [first] = await ingestEvents(sql, [event]);
    const [again] = await ingestEvents(sql, [event]);
    expect(again).toEqual({ ...first, outcome: "replay" });
    const [changed] = await ingestEvents(sql, [{ ...event, data: { code: "999999" } }]);
    expect(changed).toEqual({ eventId: "otp-7", outcome: "conflict", notifications: [] });
    const { rows } = await sql.query("SELECT count(*)::int AS n FROM herald.notifications WHERE dedup_key LIKE 'otp-7:%'");
    expect(rows[0].n).toBe(1);
  });

  it("freezes routing at first receipt: a later change of the type does not touch a replay", async () => {
    const sql = test.db.pool;
    await routeType(sql, "frozen", [{ channel: "email" }]);
    const event = { eventId: "f-1", type: "frozen", userId: "u-f" };
    await ingestEvents(sql, [event]);
    await routeType(sql, "frozen", [{ channel: "email" }, { channel: "push" }]);
    const [replay] = await ingestEvents(sql, [event]);
    expect(replay!.notifications.map((n) => n.channel)).toEqual(["email"]);
  });

  it("refuses an unknown type and writes nothing at all", async () => {
    const sql = test.db.pool;
    const before = await sql.query("SELECT (SELECT count(*) FROM herald.users) u, (SELECT count(*) FROM herald.events) e");
    const [result] = await ingestEvents(sql, [{ eventId: "x-1", type: "no.such.type", userId: "brand-new-user" }]);
    expect(result).toEqual({ eventId: "x-1", outcome: "unknown_type", notifications: [] });
    const after = await sql.query("SELECT (SELECT count(*) FROM herald.users) u, (SELECT count(*) FROM herald.events) e");
    expect(after.rows).toEqual(before.rows);
  });

  it("handles a batch in input order: duplicates inside it replay, a bad one blocks nothing", async () => {
    const sql = test.db.pool;
    await routeType(sql, "batchy", [{ channel: "email" }]);
    const results = await ingestEvents(sql, [
      { eventId: "b-1", type: "batchy", userId: "u-b" },
      { eventId: "b-2", type: "nope", userId: "u-b" },
      { eventId: "b-1", type: "batchy", userId: "u-b" },
      { eventId: "b-1", type: "batchy", userId: "u-b", data: { other: true } },
      { eventId: "b-3", type: "batchy", userId: "u-c" },
    ]);
    expect(results.map((r) => r.outcome)).toEqual(["created", "unknown_type", "replay", "conflict", "created"]);
    expect(results[2]!.notifications).toEqual(results[0]!.notifications);
  });

  it("creates exactly one row per channel when 100 clients post the same event at once", async () => {
    await routeType(test.db.pool, "race", [{ channel: "push" }, { channel: "email" }]);
    const pool = new pg.Pool({ connectionString: test.url, max: 50 });
    const results = await Promise.all(
      Array.from({ length: 100 }, () => ingestEvents(pool, [{ eventId: "race-1", type: "race", userId: "u-race" }])),
    );
    await pool.end();
    const outcomes = results.map((r) => r[0]!.outcome);
    expect(outcomes.filter((o) => o === "created")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "replay")).toHaveLength(99);
    const ids = new Set(results.flatMap((r) => r[0]!.notifications.map((n) => n.id)));
    expect(ids.size).toBe(2);
    const { rows } = await test.db.pool.query("SELECT count(*)::int AS n FROM herald.notifications WHERE dedup_key LIKE 'race-1:%'");
    expect(rows[0].n).toBe(2);
  });
});

describe("herald.emit, the transactional outbox", () => {
  const test = useTestDatabase();

  it("creates notifications only if the caller's transaction commits", async () => {
    await routeType(test.db.pool, "order.shipped", [{ channel: "email" }]);
    const client = await test.db.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("CREATE TABLE IF NOT EXISTS public.orders (id int)");
      await client.query("INSERT INTO public.orders VALUES (1)");
      const { rows } = await client.query("SELECT * FROM herald.emit('ship-1', 'order.shipped', 'u-1', '{\"order\": 1}')");
      expect(rows).toHaveLength(1);
      await client.query("ROLLBACK");

      await client.query("BEGIN");
      await client.query("CREATE TABLE IF NOT EXISTS public.orders (id int)");
      await client.query("INSERT INTO public.orders VALUES (2)");
      await client.query("SELECT * FROM herald.emit('ship-2', 'order.shipped', 'u-1', '{\"order\": 2}')");
      await client.query("COMMIT");
    } finally {
      client.release();
    }
    const { rows } = await test.db.pool.query("SELECT dedup_key FROM herald.notifications ORDER BY id");
    expect(rows.map((r) => r.dedup_key.split(":")[0])).toEqual(["ship-2"]);
  });

  it("raises inside the caller's transaction for an unknown type or a conflicting replay", async () => {
    await expect(test.db.pool.query("SELECT * FROM herald.emit('e-1', 'unknown.type', 'u-1')")).rejects.toThrow(
      'herald.emit: unknown notification type "unknown.type"',
    );
    await test.db.pool.query("SELECT * FROM herald.emit('e-2', 'order.shipped', 'u-1', '{\"a\": 1}')");
    await expect(test.db.pool.query("SELECT * FROM herald.emit('e-2', 'order.shipped', 'u-1', '{\"a\": 2}')")).rejects.toThrow(
      'herald.emit: event "e-2" for user "u-1" was already received with another payload',
    );
    const replay = await test.db.pool.query("SELECT * FROM herald.emit('e-2', 'order.shipped', 'u-1', '{\"a\": 1}')");
    expect(replay.rows).toHaveLength(1);
  });
});
