import { describe, expect, it } from "vitest";
import {
  applyDispatchDecisions,
  ingestEvents,
  pruneExpired,
  rebuildAnalytics,
  rollUpAnalytics,
  type PruneOptions,
} from "../src/index.ts";
import { routeType } from "./support/fixtures.ts";
import { useTestDatabase } from "./support/test-database.ts";

const DAY = 86_400_000;
const CUTOFF = new Date(Date.now() - 90 * DAY);

describe("retention: pruning expired rows", () => {
  const test = useTestDatabase();
  const sql = () => test.db.pool;
  let old: string[] = [];
  let recent: string[] = [];

  const options = (extra: Partial<PruneOptions> = {}): PruneOptions => ({ olderThan: CUTOFF, batchSize: 4, budgetMs: 60_000, ...extra });
  const count = async (table: string, where = "true") => (await sql().query(`SELECT count(*)::int AS n FROM herald.${table} WHERE ${where}`)).rows[0].n;
  const rollup = async () => (await sql().query("SELECT * FROM herald.analytics_daily ORDER BY day, type, channel")).rows;
  async function catchUp() {
    for (;;) {
      const r = await rollUpAnalytics(sql(), { timeZone: "UTC", batchSize: 1000, gapHorizonMs: 3_600_000 });
      if (r.kind !== "rolled_up") throw new Error(`rollup answered ${r.kind}`);
      if (r.caughtUp) return;
    }
  }

  it("seeds 20 notifications from 100 days ago and 10 from today, sent, with their sandbox messages and webhooks", async () => {
    await routeType(sql(), "news", [{ channel: "email" }]);
    const results = await ingestEvents(sql(), Array.from({ length: 30 }, (_, i) => ({ eventId: `ev-${i}`, type: "news", userId: `u-${i}` })));
    // Ids grow with time: the oldest rows are the lowest ids, as in a real database.
    const ids = results.map((r) => r.notifications[0]!.id).sort((a, b) => Number(a) - Number(b));
    await applyDispatchDecisions(sql(), ids.map((id) => ({ id, kind: "attempt" as const, provider: "sandbox", address: `u${id}@example.com`, rendered: {} })));
    await applyDispatchDecisions(sql(), ids.map((id) => ({ id, kind: "sent" as const, provider: "sandbox", providerMessageId: `pm-${id}`, latencyMs: 3 })));
    old = ids.slice(0, 20);
    recent = ids.slice(20);
    for (const id of ids) {
      await sql().query(
        `INSERT INTO herald.sandbox_messages (notification_id, provider_message_id, channel, recipient, body) VALUES ($1, $2, 'email', 'x@example.com', 'hi');
         `.trim(),
        [id, `pm-${id}`],
      );
      await sql().query("INSERT INTO herald.webhook_events (provider, event_key, kind, provider_message_id, raw, state) VALUES ('ses', $1, 'delivered', $2, '{}', 'applied')", [
        `wh-${id}`,
        `pm-${id}`,
      ]);
    }
    // One old webhook is still waiting to be applied: it stays, however old.
    await sql().query("UPDATE herald.webhook_events SET state = 'pending' WHERE event_key = $1", [`wh-${old[0]}`]);
    const back = "- interval '100 days'";
    await sql().query(`UPDATE herald.notifications SET created_at = created_at ${back}, sent_at = sent_at ${back} WHERE id = ANY ($1::bigint[])`, [old]);
    await sql().query(`UPDATE herald.events SET received_at = received_at ${back} WHERE id IN (SELECT event_ref FROM herald.notifications WHERE id = ANY ($1::bigint[]))`, [old]);
    await sql().query(`UPDATE herald.sandbox_messages SET created_at = created_at ${back} WHERE notification_id = ANY ($1::bigint[])`, [old]);
    await sql().query(`UPDATE herald.webhook_events SET received_at = received_at ${back} WHERE provider_message_id = ANY ($1::text[])`, [old.map((id) => `pm-${id}`)]);
    expect(await count("notifications")).toBe(30);
  });

  it("refuses to delete from the event log outside retention's own transaction", async () => {
    await expect(sql().query("DELETE FROM herald.notification_events WHERE id = (SELECT min(id) FROM herald.notification_events)")).rejects.toThrow(
      "notification_events is append-only: DELETE refused",
    );
  });

  it("prunes no notification while the rollup has recorded no position, and the other tables all the same", async () => {
    await sql().query("UPDATE herald.analytics_state SET built_at = NULL");
    const report = await pruneExpired(sql(), options());
    expect(report).toMatchObject({ finished: true, heldForRollup: 20, deleted: { notifications: 0, sandbox_messages: 20, webhook_events: 19, events: 0 } });
    expect(await count("notifications")).toBe(30);
    expect(await count("webhook_events", "state = 'pending'")).toBe(1);
  });

  it("prunes no notification with an event the rollup has not read, past its mark or among its gaps", async () => {
    await rebuildAnalytics(sql(), "UTC");
    const [gapped] = (await sql().query("SELECT id::text FROM herald.notification_events WHERE notification_id = $1 ORDER BY id LIMIT 1", [old[1]])).rows;
    await sql().query("INSERT INTO herald.analytics_gaps (event_id) VALUES ($1)", [gapped.id]);
    await sql().query("INSERT INTO herald.notification_events (notification_id, type) VALUES ($1, 'opened')", [old[2]]);
    const before = await rollup();
    expect(before.length).toBeGreaterThan(0);

    const report = await pruneExpired(sql(), options());
    expect(report).toMatchObject({ finished: true, heldForRollup: 2, deleted: { notifications: 18, events: 18 } });
    expect(report.batches).toBeGreaterThan(30 / 4);
    const left = (await sql().query("SELECT n.id::text AS id FROM herald.notifications n ORDER BY n.id")).rows.map((r) => r.id);
    expect(left).toEqual([old[1], old[2], ...recent]);
    expect(await count("notification_events", `notification_id NOT IN (${[old[1], old[2], ...recent].join(",")})`)).toBe(0);
    // The rollup's counts are untouched: pruning deletes rows the rollup has already counted.
    expect(await rollup()).toEqual(before);
  });

  it("prunes those two once the rollup has read their events, and the counts stay what the rollup made them", async () => {
    await sql().query("DELETE FROM herald.analytics_gaps");
    await catchUp();
    const counted = await rollup();
    const report = await pruneExpired(sql(), options());
    expect(report).toMatchObject({ finished: true, heldForRollup: 0, deleted: { notifications: 2 } });
    expect(await rollup()).toEqual(counted);
    await catchUp();
    expect(await rollup()).toEqual(counted);
    expect(await count("notifications")).toBe(10);
    expect(await count("sandbox_messages")).toBe(10);
  });

  it("stops between batches when the budget runs out, leaves whole batches only, and the next run finishes the work", async () => {
    const more = await ingestEvents(sql(), Array.from({ length: 12 }, (_, i) => ({ eventId: `late-${i}`, type: "news", userId: `late-${i}` })));
    const ids = more.map((r) => r.notifications[0]!.id);
    await applyDispatchDecisions(sql(), ids.map((id) => ({ id, kind: "skip" as const, reason: "category_disabled" })));
    await catchUp();
    const counted = await rollup();
    // Everything is expired now: the 10 recent rows and these 12.
    const everything = options({ olderThan: new Date(Date.now() + DAY) });
    // A clock that jumps past the budget after the first batch: the run is cut off there.
    let ticks = 0;
    const cut = await pruneExpired(sql(), { ...everything, budgetMs: 5, clock: () => (ticks++ < 2 ? 0 : 10) });
    expect(cut).toMatchObject({ finished: false, batches: 1, deleted: { notifications: 4 } });
    expect(await count("notifications")).toBe(22 - 4);
    expect(await count("notification_events e", "NOT EXISTS (SELECT 1 FROM herald.notifications n WHERE n.id = e.notification_id)")).toBe(0);

    const rest = await pruneExpired(sql(), everything);
    expect(rest).toMatchObject({ finished: true, deleted: { notifications: 18 } });
    expect(await count("notifications")).toBe(0);
    expect(await count("notification_events")).toBe(0);
    expect(await rollup()).toEqual(counted);
  });
});
