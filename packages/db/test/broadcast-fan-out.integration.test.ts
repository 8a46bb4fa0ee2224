import { describe, expect, it } from "vitest";
import {
  broadcastDryRun,
  broadcastLift,
  cancelBroadcast,
  createBroadcast,
  createTemplate,
  fanOutChunk,
  pauseBroadcast,
  publishTemplateDraft,
  resumeBroadcast,
  transitionBroadcast,
  type AudienceQuery,
  type BroadcastFields,
} from "../src/index.ts";
import { useTestDatabase } from "./support/test-database.ts";

/** Every user whose external id starts with the prefix: a stand-in for a compiled segment. */
/** The server's send-job shape (HERALD_BATCH_SIZE, the pump's look-ahead). */
const JOBS = { batchSize: 100, lookaheadMs: 5_000 };
const audience = (prefix: string): AudienceQuery => ({ sql: "SELECT u.id AS user_id FROM herald.users u WHERE u.external_id LIKE $1", params: [`${prefix}%`] });

describe("broadcast fan-out", () => {
  const test = useTestDatabase();
  let memberId = "";
  let segmentId = "";

  async function setUp() {
    if (memberId) return;
    const sql = test.db.pool;
    memberId = (await sql.query("INSERT INTO herald.members (email, name, role, password_hash) VALUES ('b@example.com', 'B', 'marketer', 'x') RETURNING id::text")).rows[0].id;
    segmentId = (await sql.query(`INSERT INTO herald.segments (name, rule) VALUES ('everyone', '{"kind": "and", "children": []}') RETURNING id::text`)).rows[0].id;
    await sql.query("INSERT INTO herald.categories (key, label) VALUES ('marketing', 'Marketing')");
    const body = { variables: [], content: { en: { email: { subject: "Sale", html: "<p>Sale</p>" }, push: { title: "Sale", body: "Now" } } } };
    await createTemplate(sql, { key: "sale", name: "Sale", channels: ["email", "push"], defaultCategory: null, defaultLocale: "en", memberId, draft: body });
    await publishTemplateDraft(sql, "sale", memberId, () => []);
    await sql.query(`INSERT INTO herald.template_versions (template_key, status, variables, content) VALUES ('sale', 'draft', '[]', $1::jsonb)`, [JSON.stringify(body.content)]);
    await publishTemplateDraft(sql, "sale", memberId, () => []);
  }

  async function users(prefix: string, count: number, timezone: (i: number) => string | null = () => null) {
    await test.db.pool.query(
      `INSERT INTO herald.users (external_id, email, timezone)
       SELECT $1 || i, $1 || i || '@example.com', ($3::text[])[i + 1] FROM generate_series(0, $2 - 1) i`,
      [prefix, count, Array.from({ length: count }, (_, i) => timezone(i))],
    );
  }

  async function broadcast(fields: Partial<BroadcastFields> = {}): Promise<string> {
    await setUp();
    const id = await createBroadcast(
      test.db.pool,
      { name: "b", segmentId, templateKey: "sale", variants: [{ version: 1, percent: 100 }], channels: ["email"], category: "marketing", lane: "bulk", holdoutPercent: 0, throttlePerMinute: null, data: {}, ...fields },
      memberId,
    );
    await transitionBroadcast(test.db.pool, id, ["draft"], "sending");
    return id;
  }

  async function fanOutAll(id: string, query: AudienceQuery, chunk = 7, timing: Parameters<typeof fanOutChunk>[3] = { kind: "instant", at: new Date() }) {
    for (let i = 0; i < 100; i += 1) {
      const outcome = await fanOutChunk(test.db.pool, id, query, timing, chunk, JOBS);
      if (outcome.kind === "stopped" || outcome.done) return outcome;
    }
    throw new Error("fan-out did not finish");
  }

  const rowsOf = async (id: string) =>
    (await test.db.pool.query("SELECT dedup_key, user_id::text, channel, template_version, dispatch_state, status, next_attempt_at FROM herald.notifications WHERE broadcast_id = $1 ORDER BY user_id, channel", [id])).rows;

  it("writes one row per member and channel in chunks, and a second run writes nothing", async () => {
    await users("fan-", 30);
    const id = await broadcast({ channels: ["email", "push"] });
    await fanOutAll(id, audience("fan-"));
    const first = await rowsOf(id);
    expect(first).toHaveLength(60);
    expect(new Set(first.map((r) => r.dedup_key)).size).toBe(60);
    expect(first[0].dedup_key).toBe(`broadcast:${id}:${first[0].user_id}:email`);

    // The same job again from the start (a crash before the cursor moved): same rows, no more.
    await test.db.pool.query("UPDATE herald.broadcasts SET fanout_after_user = 0, fanout_done_at = NULL WHERE id = $1", [id]);
    await fanOutAll(id, audience("fan-"), 13);
    expect(await rowsOf(id)).toEqual(first);
    const { rows } = await test.db.pool.query("SELECT targeted, fanout_done_at IS NOT NULL AS done FROM herald.broadcasts WHERE id = $1", [id]);
    expect(rows[0]).toEqual({ targeted: 60, done: true });
  });

  it("holds out and splits variants deterministically by user, recording the holdout apart", async () => {
    await users("split-", 400);
    const fields = { holdoutPercent: 20, variants: [{ version: 1, percent: 50 }, { version: 2, percent: 50 }] };
    const a = await broadcast(fields);
    await fanOutAll(a, audience("split-"), 50);
    const held = (await test.db.pool.query("SELECT user_id::text FROM herald.broadcast_holdouts WHERE broadcast_id = $1 ORDER BY user_id", [a])).rows.map((r) => r.user_id);
    const rows = await rowsOf(a);
    // About 20 % held out and an even split, and nobody both held out and sent to.
    expect(held.length).toBeGreaterThan(50);
    expect(held.length).toBeLessThan(110);
    expect(held.length + rows.length).toBe(400);
    expect(rows.filter((r) => held.includes(r.user_id))).toEqual([]);
    const v1 = rows.filter((r) => r.template_version === 1).length;
    expect(v1).toBeGreaterThan(120);
    expect(v1).toBeLessThan(200);

    // The hash is the user's share of this broadcast: the dry run, computed separately, agrees.
    const dry = await broadcastDryRun(test.db.pool, { id: a, ...fields, channels: ["email"], category: "marketing", lane: "bulk" }, audience("split-"), new Date(), "UTC");
    expect(dry.heldOut).toBe(held.length);
    expect(dry.rows.filter((r) => r.version === 1).reduce((n, r) => n + r.count, 0)).toBe(v1);
  });

  it("splits across three versions by their percentages, and the dry run counts each as the fan-out writes it", async () => {
    await users("three-", 600);
    await setUp();
    // A third published version of the template.
    await test.db.pool.query(`INSERT INTO herald.template_versions (template_key, status, variables, content) SELECT template_key, 'draft', variables, content FROM herald.template_versions WHERE template_key = 'sale' AND version = 1`);
    await publishTemplateDraft(test.db.pool, "sale", memberId, () => []);
    const fields = { variants: [{ version: 1, percent: 20 }, { version: 2, percent: 30 }, { version: 3, percent: 50 }] };
    const id = await broadcast(fields);
    await fanOutAll(id, audience("three-"), 100);
    const rows = await rowsOf(id);
    const share = (version: number) => rows.filter((r) => r.template_version === version).length / rows.length;
    expect(rows).toHaveLength(600);
    expect(share(1)).toBeGreaterThan(0.14);
    expect(share(1)).toBeLessThan(0.26);
    expect(share(2)).toBeGreaterThan(0.24);
    expect(share(2)).toBeLessThan(0.36);
    expect(share(3)).toBeGreaterThan(0.44);
    expect(share(3)).toBeLessThan(0.56);
    const dry = await broadcastDryRun(test.db.pool, { id, holdoutPercent: 0, ...fields, channels: ["email"], category: "marketing", lane: "bulk" }, audience("three-"), new Date(), "UTC");
    for (const version of [1, 2, 3]) {
      expect(dry.rows.filter((r) => r.version === version).reduce((n, r) => n + r.count, 0), `version ${version}`).toBe(share(version) * 600);
    }
  });

  it("measures lift: who of the holdout and of the treated did the activity within the window after the start", async () => {
    await users("lift-", 200);
    const id = await broadcast({ holdoutPercent: 30 });
    await fanOutAll(id, audience("lift-"), 50);
    const started = new Date(Date.now() - 72 * 3_600_000);
    await test.db.pool.query("UPDATE herald.broadcasts SET started_at = $2 WHERE id = $1", [id, started]);
    const held = (await test.db.pool.query("SELECT user_id::text FROM herald.broadcast_holdouts WHERE broadcast_id = $1 ORDER BY user_id", [id])).rows.map((r) => r.user_id as string);
    const treated = [...new Set((await rowsOf(id)).map((r) => r.user_id as string))];
    const hours = (h: number) => new Date(started.getTime() + h * 3_600_000);
    const did = (user: string, name: string, at: Date) =>
      test.db.pool.query("INSERT INTO herald.activities (user_id, name, occurred_at) VALUES ($1, $2, $3)", [user, name, at]);
    // Counted: within 48 h of the start (twice for one user: still one conversion).
    for (const user of held.slice(0, 3)) await did(user, "session_completed", hours(1));
    for (const user of treated.slice(0, 5)) await did(user, "session_completed", hours(47));
    await did(treated[0]!, "session_completed", hours(2));
    // Not counted: before the start, after the window, or another activity.
    await did(held[3]!, "session_completed", hours(-1));
    await did(treated[5]!, "session_completed", hours(49));
    await did(treated[6]!, "app_opened", hours(1));

    expect(await broadcastLift(test.db.pool, id, "session_completed", 48)).toEqual({
      holdout: { users: held.length, converted: 3 },
      treated: { users: treated.length, converted: 5 },
    });
    expect(held.length + treated.length).toBe(200);
    expect(held.length).toBeGreaterThan(40);
  });

  it("schedules local time per recipient's zone, the default for those without, across a DST change", async () => {
    const zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", null];
    await users("tz-", 4, (i) => zones[i]!);
    const id = await broadcast();
    // 2027-03-28 is the day Berlin springs forward (02:00 → 03:00); New York changed on 03-14.
    await fanOutAll(id, audience("tz-"), 10, { kind: "local", localDateTime: "2027-03-28T09:00", defaultTimezone: "Pacific/Auckland" });
    const rows = await rowsOf(id);
    expect(rows.map((r) => (r.next_attempt_at as Date).toISOString())).toEqual([
      "2027-03-28T07:00:00.000Z", // Berlin 09:00 CEST (UTC+2, the clocks changed that night)
      "2027-03-28T13:00:00.000Z", // New York 09:00 EDT (UTC−4)
      "2027-03-28T00:00:00.000Z", // Tokyo 09:00 (UTC+9)
      "2027-03-27T20:00:00.000Z", // no zone: the default, Auckland 09:00 NZDT (UTC+13)
    ]);
  });

  it("spreads a throttled broadcast over minutes by position", async () => {
    await users("thr-", 10);
    const id = await broadcast({ throttlePerMinute: 4 });
    const at = new Date(Date.now() + 3_600_000);
    await fanOutAll(id, audience("thr-"), 3, { kind: "instant", at });
    const offsets = (await rowsOf(id)).map((r) => Math.round(((r.next_attempt_at as Date).getTime() - at.getTime()) / 60_000));
    expect(offsets).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2, 2]);
  });

  it("pauses (no row left for a job to claim), stops the fan-out, resumes, and cancels what is not in flight", async () => {
    await users("ctl-", 20);
    const id = await broadcast();
    await fanOutChunk(test.db.pool, id, audience("ctl-"), { kind: "instant", at: new Date() }, 10, JOBS);
    await test.db.pool.query(
      "UPDATE herald.notifications SET dispatch_state = 'in_flight' WHERE id = (SELECT min(id) FROM herald.notifications WHERE broadcast_id = $1)",
      [id],
    );
    expect(await pauseBroadcast(test.db.pool, id, "checking the copy", memberId)).toBe(9);
    expect(await fanOutChunk(test.db.pool, id, audience("ctl-"), { kind: "instant", at: new Date() }, 10, JOBS)).toEqual({ kind: "stopped", status: "paused" });
    expect((await rowsOf(id)).map((r) => r.dispatch_state).sort()).toEqual(["in_flight", ...Array(9).fill("paused")]);

    expect(await resumeBroadcast(test.db.pool, id, memberId)).toBe(9);
    await fanOutAll(id, audience("ctl-"), 10);
    expect((await rowsOf(id)).filter((r) => r.dispatch_state === "queued")).toHaveLength(19);

    expect(await cancelBroadcast(test.db.pool, id, memberId)).toBe(19);
    const states = (await rowsOf(id)).map((r) => `${r.status}/${r.dispatch_state}`);
    expect(states.filter((s) => s === "canceled/done")).toHaveLength(19);
    expect(states).toContain("pending/in_flight");
    expect(await pauseBroadcast(test.db.pool, id, "too late", memberId)).toBeNull();
  });
});
