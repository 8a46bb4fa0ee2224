import { describe, expect, it } from "vitest";
import { evaluateGates } from "../src/dispatch/gates.ts";
import { suppressAddresses } from "../src/dispatch/side-effects.ts";
import { suppressImportedAddresses } from "../src/imports/apply-import-records.ts";
import { ingestEvents } from "../src/ingest/ingest-events.ts";
import { eraseUser } from "../src/lifecycle/erase-user.ts";
import { listUserSuppressions } from "../src/audience/user-suppressions.ts";
import { rebuildAnalytics } from "../src/analytics/rebuild-analytics.ts";
import { rollUpAnalytics } from "../src/analytics/roll-up-analytics.ts";
import { recordEngagement } from "../src/client/engagement.ts";
import { applyDispatchDecisions } from "../src/dispatch/dispatch-decisions.ts";
import { applyStatusEvents } from "../src/dispatch/status-events.ts";
import { analyticsFromEventLog, analyticsFromRollup, skipsFromRollup } from "./support/analytics-truth.ts";
import { useTestDatabase } from "./support/test-database.ts";

/**
 * Every table that can hold a user's personal data, and what an erasure does to it
 * (docs/data-lifecycle.md keeps the same list). The test below fills each one and checks each.
 */
const PERSONAL_DATA_TABLES = {
  users: "deleted",
  devices: "deleted",
  preferences: "deleted",
  quiet_hours: "deleted",
  activities: "deleted",
  activity_summaries: "deleted (its trigger recounts when the activities go)",
  events: "deleted",
  broadcast_holdouts: "deleted",
  import_rows: "deleted (rows naming the user)",
  notifications: "anonymised (address, rendered, vars, last_error, dedup_key, user_id, event_ref)",
  notification_events: "anonymised (addresses cut out of detail)",
  sandbox_messages: "anonymised (recipient, subject, title, body, headers, data)",
  webhook_events: "anonymised (raw blanked, or addresses cut out while pending)",
  audit_log: "anonymised (target → erased-user:<id>, addresses cut out, support's reason dropped)",
  suppressions: "kept as sha256 hashes",
} as const;

const ADA = { externalId: "ada-1815", email: "Ada.Lovelace@Example.com", phone: "+4915112345678", token: "fcm-token-ada-0123456789" };
const ACTOR = { memberId: null, actor: "admin@herald.test", ip: "127.0.0.1" };

describe("erasing a user", () => {
  const test = useTestDatabase();
  const sql = () => test.db.pool;
  const ids: { ada?: string; notifications?: string[]; otherNotification?: string } = {};

  async function seed() {
    await sql().query(`
      INSERT INTO herald.categories (key, label) VALUES ('news', 'News'), ('security', 'Security');
      INSERT INTO herald.notification_types (type, channels) VALUES
        ('news.all', '[{"channel": "email", "category": "news", "content": {"subject": "Hi", "body": "Hello {{ data.name }}"}},
                       {"channel": "sms", "category": "news", "content": {"body": "Hello {{ data.name }}"}},
                       {"channel": "push", "category": "news", "content": {"title": "Hi", "body": "Hello"}}]');
      INSERT INTO herald.templates (key, name, channels, default_locale) VALUES ('promo', 'Promo', '{email}', 'en');
      INSERT INTO herald.segments (name, rule) VALUES ('all', '{"all": []}');`);
    const { rows } = await sql().query(
      "INSERT INTO herald.users (external_id, email, phone, timezone, attributes) VALUES ($1, $2, $3, 'Europe/London', '{\"plan\": \"pro\"}') RETURNING id::text",
      [ADA.externalId, ADA.email, ADA.phone],
    );
    ids.ada = rows[0].id;
    await sql().query("INSERT INTO herald.users (external_id, email) VALUES ('bob', 'bob@example.com')");
    await sql().query("INSERT INTO herald.devices (user_id, token, platform) VALUES ($1, $2, 'ios')", [ids.ada, ADA.token]);
    await sql().query(
      `WITH p AS (INSERT INTO herald.preferences (user_id, category, channel, enabled, source) VALUES ($1, 'news', 'sms', false, 'api')),
            q AS (INSERT INTO herald.quiet_hours (user_id, start_time, end_time) VALUES ($1, '22:00', '07:00'))
       INSERT INTO herald.activities (user_id, name, properties) VALUES ($1, 'purchase', '{"sku": "A-1"}')`,
      [ids.ada],
    );
    const [ingested] = await ingestEvents(sql(), [{ eventId: "ev-1", type: "news.all", userId: ADA.externalId, data: { name: "Ada" } }]);
    ids.notifications = ingested!.notifications.map((n) => n.id);
    const [other] = await ingestEvents(sql(), [{ eventId: "ev-2", type: "news.all", userId: "bob", data: { name: "Bob" } }]);
    ids.otherNotification = other!.notifications[0]!.id;
    const [email, sms] = ids.notifications;
    // The email was sent and bounced; the SMS is still queued; the push waits in flight.
    await sql().query(
      `UPDATE herald.notifications SET status = 'bounced', dispatch_state = 'done', address = $2, provider = 'ses', provider_message_id = 'ses-msg-1',
              rendered = '{"subject": "Hi", "html": "Hello Ada"}', sent_at = now(), last_error = 'smtp; 550 <ada.lovelace@example.com> unknown'
        WHERE id = $1`,
      [email, ADA.email],
    );
    await sql().query("UPDATE herald.notifications SET dispatch_state = 'in_flight', in_flight_job = 42 WHERE id = $1", [ids.notifications[2]]);
    await sql().query(
      `INSERT INTO herald.notification_events (notification_id, type, detail) VALUES
         ($1, 'sent', '{"providerMessageId": "ses-msg-1"}'),
         ($1, 'bounced', '{"diagnostic": "smtp; 550 5.1.1 <ada.lovelace@example.com>: Recipient address rejected", "bounceType": "Permanent"}'),
         ($2, 'skipped', '{"reason": "quiet_hours", "to": "+4915112345678"}')`,
      [email, sms],
    );
    await sql().query(
      `INSERT INTO herald.sandbox_messages (notification_id, provider_message_id, channel, recipient, subject, body, headers)
       VALUES ($1, 'sbx-1', 'email', $2, 'Hi', 'Hello Ada', '{"To": "Ada.Lovelace@Example.com"}')`,
      [email, ADA.email],
    );
    await sql().query(
      `INSERT INTO herald.webhook_events (provider, event_key, kind, provider_message_id, raw, state) VALUES
         ('ses', 'k1', 'bounce', 'ses-msg-1', '{"mail": {"destination": ["Ada.Lovelace@Example.com"]}}', 'applied'),
         ('twilio', 'k2', 'status', 'SM-unknown', 'To=%2B4915112345678&MessageStatus=failed', 'orphan'),
         ('ses', 'k3', 'delivery', 'ses-msg-other', '{"mail": {"destination": ["bob@example.com"]}}', 'applied')`,
    );
    await suppressAddresses(sql(), [
      { channel: "email", address: ADA.email, reason: "hard_bounce", source: "ses", detail: { notificationId: email } },
      { channel: "push", address: ADA.token, reason: "invalid", source: "fcm" },
      { channel: "email", address: "bob@example.com", reason: "complaint", source: "ses" },
    ]);
    await sql().query(
      `INSERT INTO herald.imports (id, file_name, byte_size, delimiter, header, total_rows) OVERRIDING SYSTEM VALUE
         VALUES (1, 'users.csv', 100, ',', '{id,email}', 2);
       INSERT INTO herald.import_rows (import_id, row_number, fields, error) VALUES
         (1, 2, '["ada-1815", "ada.lovelace@example.com"]', 'email: already taken'),
         (1, 3, '["bob", "bob@example.com"]', 'email: already taken')`,
    );
    await sql().query(
      `INSERT INTO herald.audit_log (actor, action, target, detail) VALUES
         ('support@herald.test', 'users.lift_suppression', 'user:ada-1815', '{"channel": "sms", "address": "+4915112345678", "reason": "Ada called us"}'),
         ('support@herald.test', 'users.set_preference', 'user:bob', '{"category": "news"}')`,
    );
    await sql().query(
      `INSERT INTO herald.broadcasts (name, segment_id, template_key, variants, channels, category)
         SELECT 'promo', s.id, 'promo', '[{"key": "a", "version": 1, "percent": 100}]', '{email}', 'news' FROM herald.segments s;
       `,
    );
    await sql().query("INSERT INTO herald.broadcast_holdouts (broadcast_id, user_id) SELECT b.id, $1 FROM herald.broadcasts b", [ids.ada]);
  }

  /** Rows of every herald table whose text mentions `value`, whatever the case. */
  async function tablesMentioning(value: string): Promise<string[]> {
    const { rows: tables } = await sql().query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'herald' AND table_type = 'BASE TABLE' ORDER BY 1",
    );
    const found: string[] = [];
    for (const { table_name } of tables) {
      if (!/^[a-z_]+$/.test(table_name)) throw new Error(`unexpected table name ${table_name}`);
      const { rows } = await sql().query(`SELECT count(*)::int AS n FROM herald.${table_name} t WHERE strpos(lower(t::text), lower($1)) > 0`, [value]);
      if (rows[0].n > 0) found.push(table_name);
    }
    return found;
  }

  const counts = async () =>
    (
      await sql().query(
        "SELECT type, channel, category, count(*)::int AS n FROM herald.notifications GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
      )
    ).rows;

  /** Rows of `table` that belong to Ada: by user_id, or naming one of her values. */
  async function adaRows(table: string): Promise<number> {
    const { rows: columns } = await sql().query("SELECT 1 FROM information_schema.columns WHERE table_schema = 'herald' AND table_name = $1 AND column_name = 'user_id'", [table]);
    const byUser = columns.length > 0 ? `OR t.user_id = ${Number(ids.ada)}` : "";
    const { rows } = await sql().query(
      `SELECT count(*)::int AS n FROM herald.${table} t
        WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) v WHERE strpos(lower(t::text), lower(v)) > 0) ${byUser}`,
      [[ADA.email, ADA.phone, ADA.token, ADA.externalId, "ses-msg-1", "Hello Ada"]],
    );
    return rows[0].n;
  }

  it("covers every table with a user_id column, and finds Ada in each table of its list before erasing", async () => {
    await seed();
    const { rows } = await sql().query<{ table_name: string }>(
      "SELECT DISTINCT table_name FROM information_schema.columns WHERE table_schema = 'herald' AND column_name = 'user_id' ORDER BY 1",
    );
    for (const { table_name } of rows) expect(Object.keys(PERSONAL_DATA_TABLES)).toContain(table_name);
    for (const table of Object.keys(PERSONAL_DATA_TABLES)) expect({ table, rows: (await adaRows(table)) > 0 }).toEqual({ table, rows: true });
  });

  it("deletes the profile and what hangs off it, anonymises the rest, and leaves no trace of the address anywhere", async () => {
    const before = await counts();
    const summary = await eraseUser(sql(), ADA.externalId, ACTOR);
    expect(summary).toMatchObject({
      erasedRef: `erased-user:${ids.ada}`,
      notificationsAnonymised: 3,
      notificationsCanceled: 2,
      suppressionsHashed: 2,
      sandboxMessagesScrubbed: 1,
      webhookEventsScrubbed: 2,
      importRowsDeleted: 1,
      devicesDeleted: 1,
      preferencesDeleted: 1,
      quietHoursDeleted: 1,
      activitiesDeleted: 1,
      eventsDeleted: 1,
      broadcastHoldoutsDeleted: 1,
    });
    for (const value of [ADA.email, ADA.phone, ADA.phone.slice(1), ADA.token, ADA.externalId, "Hello Ada", "Ada called us"]) {
      expect({ value, tables: await tablesMentioning(value) }).toEqual({ value, tables: [] });
    }
    const { rows: userTables } = await sql().query<{ table_name: string }>(
      "SELECT DISTINCT table_name FROM information_schema.columns WHERE table_schema = 'herald' AND column_name = 'user_id' ORDER BY 1",
    );
    for (const { table_name } of userTables) {
      const { rows: left } = await sql().query(`SELECT count(*)::int AS n FROM herald.${table_name} WHERE user_id = $1`, [ids.ada]);
      expect({ table_name, left: left[0].n }).toEqual({ table_name, left: 0 });
    }
    // Bob is untouched.
    expect(await tablesMentioning("bob@example.com")).toEqual(["import_rows", "suppressions", "users", "webhook_events"]);
    expect((await sql().query("SELECT target FROM herald.audit_log WHERE action = 'users.set_preference'")).rows).toEqual([{ target: "user:bob" }]);

    // Counts by type, channel and category are what they were: the rollups' dimensions stay.
    expect(await counts()).toEqual(before);
    const { rows } = await sql().query(
      "SELECT id::text, status, reason, user_id, address, rendered, vars, dedup_key FROM herald.notifications WHERE id = ANY ($1::bigint[]) ORDER BY id",
      [ids.notifications],
    );
    expect(rows.map((r) => [r.status, r.reason, r.user_id, r.address, r.rendered, r.vars, r.dedup_key])).toEqual([
      ["bounced", null, null, null, null, {}, `erased:${ids.notifications![0]}`],
      ["canceled", "user_erased", null, null, null, {}, `erased:${ids.notifications![1]}`],
      ["canceled", "user_erased", null, null, null, {}, `erased:${ids.notifications![2]}`],
    ]);
    const events = await sql().query(
      "SELECT type, detail FROM herald.notification_events WHERE notification_id = $1 AND type = 'bounced'",
      [ids.notifications![0]],
    );
    expect(events.rows[0].detail).toEqual({ diagnostic: "smtp; 550 5.1.1 <[erased]>: Recipient address rejected", bounceType: "Permanent" });
    const audit = await sql().query("SELECT target, detail FROM herald.audit_log WHERE action IN ('users.lift_suppression', 'users.erase') ORDER BY id");
    expect(audit.rows).toEqual([
      { target: `erased-user:${ids.ada}`, detail: { channel: "sms", address: "[erased]" } },
      { target: `erased-user:${ids.ada}`, detail: expect.objectContaining({ notificationsAnonymised: 3, suppressionsHashed: 2 }) },
    ]);
    const webhooks = await sql().query("SELECT event_key, raw FROM herald.webhook_events ORDER BY event_key");
    expect(webhooks.rows).toEqual([
      { event_key: "k1", raw: "" },
      { event_key: "k2", raw: "To=[erased]&MessageStatus=failed" },
      { event_key: "k3", raw: '{"mail": {"destination": ["bob@example.com"]}}' },
    ]);
  });

  it("keeps the suppressions as hashes that stop a new user with the same address, in any case", async () => {
    const { rows } = await sql().query("SELECT channel, address, reason, source FROM herald.suppressions ORDER BY channel, address");
    expect(rows).toEqual([
      { channel: "email", address: "bob@example.com", reason: "complaint", source: "ses" },
      { channel: "email", address: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), reason: "hard_bounce", source: "ses" },
      { channel: "push", address: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), reason: "invalid", source: "fcm" },
    ]);
    const { rows: again } = await sql().query(
      "INSERT INTO herald.users (external_id, email) VALUES ('ada-again', ' ada.lovelace@example.com') RETURNING id::text",
    );
    const [verdict] = await evaluateGates(sql(), [{ userId: again[0].id, channel: "email", category: "news", lane: "bulk" }], new Date(), "UTC");
    expect(verdict).toMatchObject({ verdict: "skip", reason: "suppressed:hard_bounce" });
    expect((await listUserSuppressions(sql(), "ada-again")).map((s) => [s.channel, s.reason])).toEqual([["email", "hard_bounce"]]);
    // A device registering the erased token is suppressed too.
    await sql().query("INSERT INTO herald.devices (user_id, token, platform) VALUES ($1, $2, 'ios')", [again[0].id, ADA.token]);
    const [push] = await evaluateGates(sql(), [{ userId: again[0].id, channel: "push", category: "news", lane: "bulk" }], new Date(), "UTC");
    expect(push).toMatchObject({ verdict: "skip", reason: "suppressed:invalid" });
  });

  it("lets a CSV import of the erased address see it as suppressed already, and writes no plain copy", async () => {
    const result = await suppressImportedAddresses(sql(), "1", [
      { channel: "email", address: "ADA.LOVELACE@EXAMPLE.COM" },
      { channel: "email", address: "new@example.com" },
    ]);
    expect(result).toEqual({ created: 1, updated: 1 });
    expect(await tablesMentioning("ada.lovelace@example.com")).toEqual(["users"]);
  });

  it("is idempotent: a second erasure finds nobody and changes nothing", async () => {
    const snapshot = async () =>
      (await sql().query("SELECT (SELECT count(*) FROM herald.audit_log) AS audit, (SELECT count(*) FROM herald.suppressions) AS s, (SELECT count(*) FROM herald.notifications) AS n")).rows[0];
    const before = await snapshot();
    expect(await eraseUser(sql(), ADA.externalId, ACTOR)).toBeNull();
    expect(await snapshot()).toEqual(before);
  });

  it("erases all or nothing: a failure midway leaves the user whole", async () => {
    await sql().query("INSERT INTO herald.users (external_id, email) VALUES ('cleo', 'cleo@example.com')");
    // A trigger that fails the last step (the user row's delete) stands in for a crash.
    await sql().query(`
      CREATE FUNCTION pg_temp_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'crash'; END $$;
      CREATE TRIGGER fail_delete BEFORE DELETE ON herald.users FOR EACH ROW EXECUTE FUNCTION pg_temp_fail();`);
    await suppressAddresses(sql(), [{ channel: "email", address: "cleo@example.com", reason: "complaint", source: "ses" }]);
    await expect(eraseUser(sql(), "cleo", ACTOR)).rejects.toThrow("crash");
    await sql().query("DROP TRIGGER fail_delete ON herald.users; DROP FUNCTION pg_temp_fail()");
    expect((await sql().query("SELECT address FROM herald.suppressions WHERE address = 'cleo@example.com'")).rowCount).toBe(1);
    expect((await sql().query("SELECT 1 FROM herald.users WHERE external_id = 'cleo'")).rowCount).toBe(1);
    expect(await eraseUser(sql(), "cleo", ACTOR)).toMatchObject({ suppressionsHashed: 1 });
  });

  it("keeps the rollup's counts: rolled up again and rebuilt after the erasure, it only gains the notifications it canceled", async () => {
    const dora = { externalId: "dora", email: "dora@example.com", phone: "+4915198765432" };
    await sql().query(`UPDATE herald.categories SET tracking = '{"opens": true, "clicks": true}' WHERE key = 'news'`);
    await sql().query("INSERT INTO herald.users (external_id, email, phone) VALUES ($1, $2, $3)", [dora.externalId, dora.email, dora.phone]);
    const ingested = await ingestEvents(sql(), [1, 2].map((i) => ({ eventId: `dora-${i}`, type: "news.all", userId: dora.externalId, data: { name: "Dora" } })));
    const [[email1, sms1, push1], [email2, sms2, push2]] = ingested.map((r) => r.notifications.map((n) => n.id)) as [string[], string[]];
    // Every counter the erasure could disturb: sends, a delivery, opens (one by a proxy, its event
    // naming her address), a click, a bounce, a skip with its reason, a dead letter.
    await applyDispatchDecisions(sql(), [
      ...[email1!, email2!].map((id) => ({ id, kind: "attempt" as const, provider: "ses", address: dora.email, rendered: { html: "Hello Dora" } })),
      { id: sms1!, kind: "skip" as const, reason: "quiet_hours_expired" },
      { id: push1!, kind: "dead" as const, reason: "no_device" },
    ]);
    await applyDispatchDecisions(sql(), [email1!, email2!].map((id) => ({ id, kind: "sent" as const, provider: "ses", providerMessageId: `ses-${id}`, latencyMs: 5 })));
    await applyStatusEvents(sql(), [
      { providerMessageId: `ses-${email1}`, kind: "delivered", at: new Date() },
      { providerMessageId: `ses-${email2}`, kind: "bounced", at: new Date(), detail: { diagnostic: `550 <${dora.email}> unknown` } },
    ]);
    await recordEngagement(sql(), { notificationId: email1!, kind: "opened", detail: { proxy: "apple_mpp", prefetch: true, to: dora.email }, countsAsFirst: false });
    await recordEngagement(sql(), { notificationId: email1!, kind: "opened", countsAsFirst: true });
    await recordEngagement(sql(), { notificationId: email1!, kind: "clicked", countsAsFirst: true });
    const catchUp = async () => expect(await rollUpAnalytics(sql(), { timeZone: "UTC", batchSize: 1000, gapHorizonMs: 3_600_000 })).toMatchObject({ kind: "rolled_up", caughtUp: true });
    await catchUp();
    const before = await analyticsFromRollup(sql());
    const skipsBefore = await skipsFromRollup(sql());
    expect([...before.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(10);

    // Two events named her address (the bounce's diagnostic, the proxy open): scrubbed, still counted as what they were.
    expect(await eraseUser(sql(), dora.externalId, ACTOR)).toMatchObject({ notificationsCanceled: 2, notificationEventsScrubbed: 2 });
    expect(await tablesMentioning(dora.email)).toEqual([]);
    await catchUp();
    // Her two pending notifications were canceled: one more `canceled` each, on their creation day.
    const expected = new Map(before);
    const { rows: canceled } = await sql().query(
      "SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day, type, channel FROM herald.notifications WHERE id = ANY ($1::bigint[]) AND status = 'canceled'",
      [[sms2, push2]],
    );
    expect(canceled).toHaveLength(2);
    for (const c of canceled) {
      const key = [c.day, c.type, c.channel, "", 0, 0, "canceled"].join("|");
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    const incremental = await analyticsFromRollup(sql());
    expect(Object.fromEntries(incremental)).toEqual(Object.fromEntries(expected));
    expect(Object.fromEntries(await skipsFromRollup(sql()))).toEqual(Object.fromEntries(skipsBefore));

    // Rebuilt from the anonymised log, the same rows again, and the same as a direct count over it.
    await rebuildAnalytics(sql(), "UTC");
    expect(Object.fromEntries(await analyticsFromRollup(sql()))).toEqual(Object.fromEntries(incremental));
    expect(Object.fromEntries(await analyticsFromEventLog(sql(), "UTC"))).toEqual(Object.fromEntries(incremental));
    expect(Object.fromEntries(await skipsFromRollup(sql()))).toEqual(Object.fromEntries(skipsBefore));
  });
});
