import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  applyDispatchDecisions,
  applyLinkPreference,
  applyStatusEvents,
  cancelBroadcast,
  createBroadcast,
  createTemplate,
  eraseUser,
  fanOutChunk,
  ingestEvents,
  publishTemplateDraft,
  rebuildAnalytics,
  recordEngagement,
  replayDeadLetters,
  rollUpAnalytics,
  transitionBroadcast,
  withTransaction,
  type DispatchDecision,
  type StatusEvent,
} from "../src/index.ts";
import { analyticsFromEventLog, analyticsFromRollup, skipsFromEventLog, skipsFromRollup } from "./support/analytics-truth.ts";
import { routeType } from "./support/fixtures.ts";
import { useTestDatabase } from "./support/test-database.ts";

const TZ = "Europe/Berlin";
const HOUR = 3_600_000;

describe("analytics rollup", () => {
  const test = useTestDatabase();
  const sql = () => test.db.pool;

  async function catchUp(batchSize = 7, gapHorizonMs = HOUR) {
    for (let i = 0; i < 1000; i++) {
      const r = await rollUpAnalytics(sql(), { timeZone: TZ, batchSize, gapHorizonMs });
      if (r.kind !== "rolled_up") throw new Error(`rollup answered ${r.kind}`);
      if (r.caughtUp) return r;
    }
    throw new Error("rollup never caught up");
  }

  async function send(ids: string[]) {
    const decisions: DispatchDecision[] = ids.flatMap((id) => [
      { id, kind: "attempt" as const, provider: "sandbox", address: `a${id}@example.com`, rendered: {} },
    ]);
    await applyDispatchDecisions(sql(), decisions);
    await applyDispatchDecisions(sql(), ids.map((id) => ({ id, kind: "sent" as const, provider: "sandbox", providerMessageId: `pm-${id}`, latencyMs: 3 })));
  }

  const statusEvents = (ids: string[], kind: StatusEvent["kind"], extra: Partial<StatusEvent> = {}): StatusEvent[] =>
    ids.map((id) => ({ providerMessageId: `pm-${id}`, kind, at: new Date(), ...extra }));

  async function expectRollupMatchesLog() {
    const truth = await analyticsFromEventLog(sql(), TZ);
    expect(truth.size).toBeGreaterThan(10);
    expect(Object.fromEntries(await analyticsFromRollup(sql()))).toEqual(Object.fromEntries(truth));
    expect(Object.fromEntries(await skipsFromRollup(sql()))).toEqual(Object.fromEntries(await skipsFromEventLog(sql(), TZ)));
  }

  it("needs a set-based build before it rolls up incrementally", async () => {
    // A fresh database's empty log counts as built, in UTC.
    expect(await rollUpAnalytics(sql(), { timeZone: "UTC", batchSize: 10, gapHorizonMs: HOUR })).toMatchObject({ kind: "rolled_up", events: 0 });
    await sql().query("UPDATE herald.analytics_state SET built_at = NULL");
    expect(await rollUpAnalytics(sql(), { timeZone: TZ, batchSize: 10, gapHorizonMs: HOUR })).toEqual({ kind: "needs_build", reason: "never_built" });
    await rebuildAnalytics(sql(), TZ);
  });

  let email: string[] = [];
  let sms: string[] = [];

  /** Spreads creation or sending over the last five days, as if it had happened then (before any rollup read it). */
  async function backdate(column: "created_at" | "sent_at") {
    await sql().query(`UPDATE herald.notifications SET ${column} = ${column} - make_interval(days => (id % 5)::int) WHERE id = ANY ($1::bigint[])`, [
      [...email, ...sms],
    ]);
  }

  it("counts a generated history with late events, duplicates, replays and repeated runs exactly like the event log", async () => {
    await routeType(sql(), "news", [{ channel: "email", category: "marketing" }, { channel: "sms" }]);
    await sql().query(`UPDATE herald.categories SET tracking = '{"opens": true, "clicks": true}' WHERE key = 'marketing'`);
    const results = await ingestEvents(sql(), Array.from({ length: 40 }, (_, i) => ({ eventId: `news-${i}`, type: "news", userId: `user-${i}` })));
    email = results.map((r) => r.notifications.find((n) => n.channel === "email")!.id);
    sms = results.map((r) => r.notifications.find((n) => n.channel === "sms")!.id);
    await backdate("created_at");
    await catchUp();

    // Skips with two reasons, dead letters (two of them replayed and sent after all), sends.
    await applyDispatchDecisions(sql(), [
      ...email.slice(0, 3).map((id) => ({ id, kind: "skip" as const, reason: "opted_out" })),
      ...sms.slice(0, 2).map((id) => ({ id, kind: "skip" as const, reason: "suppressed" })),
      ...sms.slice(2, 6).map((id) => ({ id, kind: "dead" as const, reason: "invalid_number" })),
    ]);
    await catchUp(5);
    await replayDeadLetters(sql(), { ids: sms.slice(2, 4) }, "test");
    const sentEmail = email.slice(3);
    const sentSms = [...sms.slice(2, 4), ...sms.slice(6)];
    await send([...sentEmail, ...sentSms]);
    await backdate("sent_at");
    await catchUp(3);

    // Webhooks, some twice; opens by people and by Apple's prefetch; a click; a complaint; an unsubscribe.
    await applyStatusEvents(sql(), [
      ...statusEvents(sentEmail.slice(0, 30), "delivered"),
      ...statusEvents(sentEmail.slice(0, 10), "delivered"),
      ...statusEvents(sentEmail.slice(30), "bounced", { suppress: "hard_bounce" }),
      ...statusEvents(sentSms.slice(0, 20), "delivered"),
      ...statusEvents(sentSms.slice(20), "failed"),
      ...statusEvents(sentEmail.slice(0, 2), "complaint", { suppress: "complaint" }),
    ]);
    await catchUp(11);
    for (const id of sentEmail.slice(0, 12)) {
      await recordEngagement(sql(), { notificationId: id, kind: "opened", detail: { proxy: "apple_mpp", prefetch: true }, countsAsFirst: false });
    }
    for (const id of sentEmail.slice(5, 20)) {
      await recordEngagement(sql(), { notificationId: id, kind: "opened", countsAsFirst: true });
      await recordEngagement(sql(), { notificationId: id, kind: "opened", countsAsFirst: false });
    }
    for (const id of sentEmail.slice(5, 9)) await recordEngagement(sql(), { notificationId: id, kind: "clicked", countsAsFirst: true });
    const { rows } = await sql().query("SELECT user_id::text FROM herald.notifications WHERE id = $1", [sentEmail[6]]);
    await withTransaction(sql(), (tx) =>
      applyLinkPreference(tx, { notificationId: sentEmail[6]!, userId: rows[0].user_id, category: "marketing", channel: "email", enabled: false, via: "one_click", ip: null }),
    );
    await catchUp(4);
    // A run with nothing new writes nothing, not even its state row.
    const before = await analyticsFromRollup(sql());
    const state = (await sql().query("SELECT * FROM herald.analytics_state")).rows;
    await catchUp();
    expect(await analyticsFromRollup(sql())).toEqual(before);
    expect((await sql().query("SELECT * FROM herald.analytics_state")).rows).toEqual(state);

    await expectRollupMatchesLog();
    const row = await sql().query(
      `SELECT sum(sent)::int AS sent, sum(delivered)::int AS delivered, sum(opened)::int AS opened, sum(opened_by_proxy)::int AS proxy,
              sum(clicked)::int AS clicked, sum(bounced)::int AS bounced, sum(complained)::int AS complained, sum(unsubscribed)::int AS unsubscribed,
              sum(skipped)::int AS skipped, sum(dead)::int AS dead, sum(created)::int AS created
         FROM herald.analytics_daily WHERE channel = 'email'`,
    );
    expect(row.rows[0]).toEqual({ sent: 37, delivered: 30, opened: 15, proxy: 12, clicked: 4, bounced: 7, complained: 2, unsubscribed: 1, skipped: 3, dead: 0, created: 40 });
    const smsDead = await sql().query("SELECT sum(dead)::int AS dead FROM herald.analytics_daily WHERE channel = 'sms'");
    expect(smsDead.rows[0].dead).toBe(2);
    const skips = await sql().query("SELECT reason, sum(skipped)::int AS n FROM herald.analytics_daily_skips GROUP BY reason ORDER BY reason");
    expect(skips.rows).toEqual([{ reason: "opted_out", n: 3 }, { reason: "suppressed", n: 2 }]);
  });

  it("puts canceled notifications, each template version and each broadcast on rows of their own, exactly like the event log", async () => {
    const memberId = (await sql().query("INSERT INTO herald.members (email, name, role, password_hash) VALUES ('m@example.com', 'M', 'marketer', 'x') RETURNING id::text")).rows[0].id;
    const segmentId = (await sql().query(`INSERT INTO herald.segments (name, rule) VALUES ('everyone', '{"kind": "and", "children": []}') RETURNING id::text`)).rows[0].id;
    const content = { en: { email: { subject: "Digest", html: "<p>Digest</p>" } } };
    await createTemplate(sql(), { key: "digest", name: "Digest", channels: ["email"], defaultCategory: null, defaultLocale: "en", memberId, draft: { variables: [], content } });
    await publishTemplateDraft(sql(), "digest", memberId, () => []);
    await sql().query(`INSERT INTO herald.notification_types (type, channels) VALUES ('digest', $1::jsonb)`, [
      JSON.stringify([{ channel: "email", category: "marketing", template: "digest" }, { channel: "sms", category: "transactional", content: { body: "Your digest" } }]),
    ]);
    const ingest = async (from: number) =>
      ingestEvents(sql(), Array.from({ length: 10 }, (_, i) => ({ eventId: `digest-${from + i}`, type: "digest", userId: `digest-${from + i}` })));
    // Ten events pinned to version 1, ten to version 2: ingest pins the template's current version.
    const first = await ingest(0);
    await sql().query(`INSERT INTO herald.template_versions (template_key, status, variables, content) VALUES ('digest', 'draft', '[]', $1::jsonb)`, [JSON.stringify(content)]);
    await publishTemplateDraft(sql(), "digest", memberId, () => []);
    const second = await ingest(10);
    const emailOf = (results: typeof first) => results.map((r) => r.notifications.find((n) => n.channel === "email")!.id);
    const [v1, v2] = [emailOf(first), emailOf(second)];
    const texts = [...first, ...second].map((r) => r.notifications.find((n) => n.channel === "sms")!.id);

    // Two broadcasts to the same twenty users: an A/B test of both versions, and one on version 2 only.
    async function broadcast(name: string, variants: Array<{ version: number; percent: number }>): Promise<string> {
      const id = await createBroadcast(
        sql(),
        { name, segmentId, templateKey: "digest", variants, channels: ["email"], category: "marketing", lane: "bulk", holdoutPercent: 0, throttlePerMinute: null, data: {} },
        memberId,
      );
      await transitionBroadcast(sql(), id, ["draft"], "sending");
      const audience = { sql: "SELECT u.id AS user_id FROM herald.users u WHERE u.external_id LIKE 'digest-%'", params: [] };
      expect(await fanOutChunk(sql(), id, audience, { kind: "instant", at: new Date() }, 100, null)).toMatchObject({ kind: "chunk", created: 20 });
      return id;
    }
    const spring = await broadcast("spring", [{ version: 1, percent: 50 }, { version: 2, percent: 50 }]);
    const autumn = await broadcast("autumn", [{ version: 2, percent: 100 }]);
    const mine = "type IN ('digest', 'broadcast')";
    await sql().query(`UPDATE herald.notifications SET created_at = created_at - make_interval(days => (id % 4)::int) WHERE ${mine}`);
    await catchUp(6);

    // Erasing a user cancels every pending notification of theirs: one of each kind here.
    expect(await eraseUser(sql(), "digest-19", { memberId: null, actor: "test" })).toMatchObject({ notificationsCanceled: 4 });
    const pending = async (broadcastId: string) =>
      (await sql().query("SELECT id::text FROM herald.notifications WHERE broadcast_id = $1 AND status = 'pending' ORDER BY id", [broadcastId])).rows.map((r) => r.id as string);
    const springRows = await pending(spring);
    const autumnRows = await pending(autumn);
    await applyDispatchDecisions(sql(), [
      ...v1.slice(0, 3).map((id) => ({ id, kind: "skip" as const, reason: "opted_out" })),
      { id: v2[0]!, kind: "skip" as const, reason: "quiet_hours_expired" },
      ...texts.slice(0, 2).map((id) => ({ id, kind: "skip" as const, reason: "suppressed" })),
      ...texts.slice(2, 5).map((id) => ({ id, kind: "dead" as const, reason: "invalid_number" })),
      ...springRows.slice(0, 2).map((id) => ({ id, kind: "skip" as const, reason: "suppressed" })),
      ...springRows.slice(2, 4).map((id) => ({ id, kind: "dead" as const, reason: "provider_rejected:550" })),
    ]);
    await catchUp(4);
    await replayDeadLetters(sql(), { ids: [springRows[2]!] }, "test");
    const sentEmail = [...v1.slice(3), ...v2.slice(1, 9), ...springRows.slice(4, 16), springRows[2]!, ...autumnRows.slice(0, 8)];
    const sentSms = [...texts.slice(5, 19)];
    await send([...sentEmail, ...sentSms]);
    await sql().query(`UPDATE herald.notifications SET sent_at = sent_at - make_interval(days => (id % 3)::int) WHERE sent_at IS NOT NULL AND (${mine})`);
    // The rest of the autumn broadcast is canceled before it goes out; three spring rows still wait.
    expect(await cancelBroadcast(sql(), autumn, memberId)).toBe(autumnRows.length - 8);
    await catchUp(9);

    await applyStatusEvents(sql(), [
      ...statusEvents(sentEmail.slice(0, 30), "delivered"),
      ...statusEvents(sentEmail.slice(30), "bounced", { suppress: "hard_bounce" }),
      ...statusEvents(sentSms.slice(0, 10), "delivered"),
      ...statusEvents(sentSms.slice(10), "failed"),
      ...statusEvents([sentEmail[1]!, sentEmail[20]!], "complaint", { suppress: "complaint" }),
    ]);
    await catchUp(13);
    for (const id of sentEmail.filter((_, i) => i % 3 === 0)) await recordEngagement(sql(), { notificationId: id, kind: "opened", countsAsFirst: true });
    for (const id of sentEmail.filter((_, i) => i % 4 === 1)) {
      await recordEngagement(sql(), { notificationId: id, kind: "opened", detail: { proxy: "apple_mpp", prefetch: true }, countsAsFirst: false });
    }
    for (const id of sentEmail.filter((_, i) => i % 6 === 0)) await recordEngagement(sql(), { notificationId: id, kind: "clicked", countsAsFirst: true });
    await catchUp(5);
    await expectRollupMatchesLog();

    // The history really has what this test is about: canceled rows, both versions, both broadcasts.
    const truth = await analyticsFromEventLog(sql(), TZ);
    const dimensions = new Set([...truth.keys()].map((k) => k.split("|").slice(1, 6).join("|")));
    expect([...dimensions].sort()).toEqual(
      [
        "digest|email|digest|1|0",
        "digest|email|digest|2|0",
        `broadcast|email|digest|1|${spring}`,
        `broadcast|email|digest|2|${spring}`,
        `broadcast|email|digest|2|${autumn}`,
        "digest|sms||0|0",
        "news|email||0|0",
        "news|sms||0|0",
      ].sort(),
    );
    const { rows } = await sql().query(
      `SELECT broadcast_id::text AS broadcast, sum(canceled)::int AS canceled, sum(sent)::int AS sent, sum(dead)::int AS dead, sum(skipped)::int AS skipped
         FROM herald.analytics_daily WHERE type IN ('digest', 'broadcast') GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).toEqual([
      { broadcast: "0", canceled: 2, sent: 29, dead: 3, skipped: 6 },
      { broadcast: spring, canceled: 1, sent: 13, dead: 1, skipped: 2 },
      { broadcast: autumn, canceled: autumnRows.length - 8 + 1, sent: 8, dead: 0, skipped: 0 },
    ]);
  });

  it("counts an open days later toward the day the notification was sent", async () => {
    const id = email[25]!;
    await sql().query("UPDATE herald.notifications SET sent_at = now() - interval '3 days' WHERE id = $1", [id]);
    await rebuildAnalytics(sql(), TZ);
    const sendDay = (await sql().query("SELECT ((now() - interval '3 days') AT TIME ZONE $1)::date::text AS d", [TZ])).rows[0].d;
    const opensOnSendDay = async () =>
      Number((await sql().query("SELECT coalesce(sum(opened), 0) AS n FROM herald.analytics_daily WHERE day = $1 AND channel = 'email'", [sendDay])).rows[0].n);
    const before = await opensOnSendDay();
    await recordEngagement(sql(), { notificationId: id, kind: "opened", countsAsFirst: true });
    await catchUp();
    expect(await opensOnSendDay()).toBe(before + 1);
    await expectRollupMatchesLog();
  });

  it("counts once when two runs race, and nothing when a run dies midway", async () => {
    for (const id of email.slice(20, 24)) await recordEngagement(sql(), { notificationId: id, kind: "clicked", countsAsFirst: true });
    await Promise.all([catchUp(2), catchUp(2), catchUp(3)]);
    await expectRollupMatchesLog();

    await applyStatusEvents(sql(), statusEvents(email.slice(3, 5), "read"));
    const blocker = await sql().connect();
    const victim = new pg.Pool({ connectionString: test.url, max: 1, application_name: "analytics-victim" });
    victim.on("error", () => undefined);
    victim.on("connect", (client) => client.on("error", () => undefined));
    try {
      await blocker.query("BEGIN");
      await blocker.query("LOCK TABLE herald.analytics_daily IN ACCESS EXCLUSIVE MODE");
      // Its rejection is expected now, not at the await below: the run can die while the loop
      // still polls, and a rejection with no handler yet is reported as unhandled.
      const died = expect(rollUpAnalytics(victim, { timeZone: TZ, batchSize: 100, gapHorizonMs: HOUR })).rejects.toThrow();
      // Wait until the run is inside its statement, blocked on the rollup table, then kill it.
      for (let i = 0; i < 200; i++) {
        const { rowCount } = await sql().query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'analytics-victim' AND wait_event_type = 'Lock'",
        );
        if (rowCount) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await died;
      await blocker.query("ROLLBACK");
    } finally {
      blocker.release();
      await victim.end().catch(() => undefined);
    }
    const { rows } = await sql().query("SELECT sum(read)::int AS read FROM herald.analytics_daily");
    expect(rows[0].read).toBe(0);
    await catchUp();
    expect((await sql().query("SELECT sum(read)::int AS read FROM herald.analytics_daily")).rows[0].read).toBe(2);
    await expectRollupMatchesLog();
  });

  it("counts an event whose id committed after a later one, once, and lets a rolled-back id go after the horizon", async () => {
    const slow = await sql().connect();
    const aborted = await sql().connect();
    try {
      await slow.query("BEGIN");
      await recordEngagement(slow, { notificationId: email[30]!, kind: "clicked", countsAsFirst: true });
      await aborted.query("BEGIN");
      await recordEngagement(aborted, { notificationId: email[31]!, kind: "clicked", countsAsFirst: true });
      await recordEngagement(sql(), { notificationId: email[32]!, kind: "clicked", countsAsFirst: true });
      const passed = await catchUp();
      expect(passed.openGaps).toBe(2);
      await slow.query("COMMIT");
      await aborted.query("ROLLBACK");
      const filled = await catchUp();
      expect(filled.openGaps).toBe(1);
      await expectRollupMatchesLog();
      // A clicked event for the same notification committed later must not count it again.
      await recordEngagement(sql(), { notificationId: email[30]!, kind: "clicked", countsAsFirst: true });
      expect((await catchUp(10, 0)).openGaps).toBe(0);
      await expectRollupMatchesLog();
    } finally {
      slow.release();
      aborted.release();
    }
  });

  it("rebuilds from scratch to the same rows, and resumes incrementally after the rebuild", async () => {
    const incremental = await analyticsFromRollup(sql());
    const rebuilt = await rebuildAnalytics(sql(), TZ);
    // 80 news and 40 digest notifications, and 37 broadcast rows: the three still waiting have no event yet.
    expect(rebuilt.notifications).toBe(157);
    expect(await analyticsFromRollup(sql())).toEqual(incremental);
    await applyStatusEvents(sql(), statusEvents(email.slice(10, 12), "read"));
    await catchUp();
    await expectRollupMatchesLog();
  });

  it("puts days in the build's time zone, and asks for a rebuild when the workspace's changes", async () => {
    expect(await rollUpAnalytics(sql(), { timeZone: "Pacific/Kiritimati", batchSize: 10, gapHorizonMs: HOUR })).toEqual({
      kind: "needs_build",
      reason: "time_zone_changed",
    });
    await rebuildAnalytics(sql(), "Pacific/Kiritimati");
    expect(Object.fromEntries(await analyticsFromRollup(sql()))).toEqual(Object.fromEntries(await analyticsFromEventLog(sql(), "Pacific/Kiritimati")));
    expect(Object.fromEntries(await skipsFromRollup(sql()))).toEqual(Object.fromEntries(await skipsFromEventLog(sql(), "Pacific/Kiritimati")));
    const { rows } = await sql().query("SELECT time_zone FROM herald.analytics_state");
    expect(rows[0].time_zone).toBe("Pacific/Kiritimati");
  });
});
