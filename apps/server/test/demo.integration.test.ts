import { listUserNotifications, openDatabase, type Database } from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_TEMPLATES } from "../src/demo/catalogue.ts";
import { DemoRefusal, runDemo, type DemoOptions, type DemoResult } from "../src/demo/run-demo.ts";

const TZ = "UTC";
const options: DemoOptions = { users: 500, days: 5, seed: 7, reset: false, progress: () => undefined, liveWorkerWithinMs: 45_000 };

describe("pnpm demo at a small size (500 users, 5 days)", () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let result: DemoResult;
  const sql = () => database.pool;
  const one = async (text: string, values: unknown[] = []) => (await sql().query(text, values)).rows[0];

  beforeAll(async () => {
    testDatabase = await createTestDatabase(inject("templateUrl"));
    database = openDatabase(testDatabase.url);
    result = await runDemo({ database, databaseUrl: testDatabase.url, defaultTimezone: TZ }, options);
  }, 600_000);
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  it("creates the users with devices (some deactivated), emails, phones and behaviour, and a demo admin", async () => {
    const counts = await one(
      `SELECT (SELECT count(*) FROM herald.users)::int AS users,
              (SELECT count(*) FROM herald.users WHERE email IS NOT NULL)::int AS emails,
              (SELECT count(*) FROM herald.users WHERE phone IS NOT NULL)::int AS phones,
              (SELECT count(DISTINCT coalesce(timezone, '-')) FROM herald.users)::int AS zones,
              (SELECT count(*) FROM herald.devices WHERE active)::int AS active_devices,
              (SELECT count(*) FROM herald.devices WHERE NOT active)::int AS inactive_devices,
              (SELECT count(*) FROM herald.activities WHERE name = 'session_completed')::int AS sessions,
              (SELECT role FROM herald.members WHERE email = $1) AS admin_role`,
      [result.admin.email],
    );
    expect(counts.users).toBe(500);
    expect(counts.emails).toBeGreaterThan(400);
    expect(counts.phones).toBeGreaterThan(250);
    expect(counts.zones).toBeGreaterThan(10);
    expect(counts.active_devices).toBeGreaterThan(300);
    expect(counts.inactive_devices).toBeGreaterThan(0);
    expect(counts.sessions).toBeGreaterThan(1000);
    expect(counts.admin_role).toBe("admin");
    expect(result.admin.password.length).toBeGreaterThanOrEqual(12);
  });

  it("publishes two versions of every template, and notifications are pinned to both", async () => {
    const { rows } = await sql().query(
      "SELECT template_key, count(*)::int AS n FROM herald.template_versions WHERE status = 'published' GROUP BY template_key ORDER BY template_key",
    );
    expect(rows).toEqual(DEMO_TEMPLATES.map((t) => ({ template_key: t.key, n: 2 })).sort((a, b) => a.template_key.localeCompare(b.template_key)));
    const pinned = await one("SELECT count(DISTINCT template_version)::int AS n FROM herald.notifications WHERE template_key = 'order_shipped'");
    expect(pinned.n).toBe(2);
  });

  it("sends three broadcasts through the broadcast path, one as an A/B test of two versions, all marked sent", async () => {
    const { rows } = await sql().query(
      `SELECT b.status, b.targeted, b.started_at < now() - interval '1 day' AS in_the_past,
              (SELECT count(*) FROM herald.notifications n WHERE n.broadcast_id = b.id)::int AS notifications,
              (SELECT count(*) FROM herald.notifications n WHERE n.broadcast_id = b.id AND n.status NOT IN ('pending', 'skipped', 'dead'))::int AS sent,
              (SELECT count(DISTINCT n.template_version) FROM herald.notifications n WHERE n.broadcast_id = b.id)::int AS versions
         FROM herald.broadcasts b ORDER BY b.id`,
    );
    expect(rows).toHaveLength(3);
    for (const b of rows) {
      expect(b).toMatchObject({ status: "sent", in_the_past: true });
      expect(b.notifications).toBeGreaterThan(0);
      expect(b.notifications).toBe(b.targeted);
      expect(b.sent).toBeGreaterThan(0);
    }
    expect(rows[0].versions).toBe(2);
    // It sent them itself: no send job waits in the queue for rows it already sent.
    const { rows: jobs } = await sql().query("SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE task_id IN (SELECT id FROM graphile_worker._private_tasks WHERE identifier LIKE 'send_%')");
    expect(jobs[0].n).toBe(0);
  });

  it("spreads the notifications, their sends and their event log over the days of the history", async () => {
    const spread = await one(
      `SELECT count(DISTINCT (created_at AT TIME ZONE 'UTC')::date)::int AS created_days,
              count(DISTINCT (sent_at AT TIME ZONE 'UTC')::date)::int AS sent_days,
              min(created_at) < now() - interval '4 days' AS old_enough,
              bool_and(sent_at IS NULL OR sent_at >= created_at) AS sent_after_created
         FROM herald.notifications`,
    );
    expect(spread).toMatchObject({ old_enough: true, sent_after_created: true });
    expect(spread.created_days).toBeGreaterThanOrEqual(5);
    expect(spread.sent_days).toBeGreaterThanOrEqual(5);
    const log = await one("SELECT count(DISTINCT (at AT TIME ZONE 'UTC')::date)::int AS days, max(at) <= now() AS none_ahead FROM herald.notification_events");
    expect(log.days).toBeGreaterThanOrEqual(5);
    expect(log.none_ahead).toBe(true);
  });

  it("gets bounces, complaints, dead letters and dead tokens from the sandbox, and the suppressions they create", async () => {
    const { rows } = await sql().query("SELECT type, count(*)::int AS n FROM herald.notification_events GROUP BY type");
    const events = Object.fromEntries(rows.map((r) => [r.type, r.n]));
    for (const type of ["sent", "delivered", "bounced", "complaint", "opened", "clicked", "skipped", "dead"]) expect(events[type] ?? 0, type).toBeGreaterThan(0);
    const suppressions = await sql().query("SELECT reason, source, count(*)::int AS n FROM herald.suppressions GROUP BY reason, source ORDER BY reason");
    expect(suppressions.rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ reason: "complaint", source: "sandbox-email" }),
        expect.objectContaining({ reason: "hard_bounce", source: "sandbox-email" }),
      ]),
    );
    // Each suppression stands for a bounce or complaint the status function applied.
    const unexplained = await one(
      `SELECT count(*)::int AS n FROM herald.suppressions s
        WHERE s.reason IN ('complaint', 'hard_bounce') AND NOT EXISTS (
          SELECT 1 FROM herald.notification_events e JOIN herald.notifications n ON n.id = e.notification_id
           WHERE n.address = s.address AND e.type = CASE s.reason WHEN 'complaint' THEN 'complaint' ELSE 'bounced' END)`,
    );
    expect(unexplained.n).toBe(0);
    const deadTokens = await one("SELECT count(*)::int AS n FROM herald.devices WHERE deactivated_reason = 'unregistered' AND token LIKE 'invalid-%'");
    expect(deadTokens.n).toBeGreaterThan(0);
  });

  it("fills the analytics rollup with exactly what the event log says, per send day", async () => {
    const rollup = await sql().query(
      `SELECT day::text, type, channel, template_version, broadcast_id::text, sent, delivered, bounced, opened, clicked, complained
         FROM herald.analytics_daily WHERE sent + delivered + bounced + opened + clicked + complained > 0
        ORDER BY 1, 2, 3, 4, 5`,
    );
    // Written apart from the rollup's SQL: per notification, did any event of the kind happen,
    // counted on the day the notification was sent.
    const truth = await sql().query(
      `WITH per AS (
         SELECT n.id, ((coalesce(n.sent_at, n.created_at)) AT TIME ZONE $1)::date::text AS day, n.type, n.channel,
                coalesce(n.template_version, 0) AS template_version, coalesce(n.broadcast_id, 0)::text AS broadcast_id,
                bool_or(e.type = 'sent') AS sent, bool_or(e.type = 'delivered') AS delivered, bool_or(e.type = 'bounced') AS bounced,
                bool_or(e.type = 'opened') AS opened, bool_or(e.type = 'clicked') AS clicked, bool_or(e.type = 'complaint') AS complained
           FROM herald.notifications n JOIN herald.notification_events e ON e.notification_id = n.id
          GROUP BY n.id
       )
       SELECT day, type, channel, template_version, broadcast_id,
              count(*) FILTER (WHERE sent)::int AS sent, count(*) FILTER (WHERE delivered)::int AS delivered,
              count(*) FILTER (WHERE bounced)::int AS bounced, count(*) FILTER (WHERE opened)::int AS opened,
              count(*) FILTER (WHERE clicked)::int AS clicked, count(*) FILTER (WHERE complained)::int AS complained
         FROM per GROUP BY 1, 2, 3, 4, 5
       HAVING count(*) FILTER (WHERE sent OR delivered OR bounced OR opened OR clicked OR complained) > 0
        ORDER BY 1, 2, 3, 4, 5`,
      [TZ],
    );
    const numbers = (rows: Array<Record<string, unknown>>) => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "string" && /^\d+$/.test(v) && k !== "broadcast_id" ? Number(v) : v])));
    expect(rollup.rows.length).toBeGreaterThan(20);
    expect(numbers(rollup.rows)).toEqual(numbers(truth.rows));
  });

  it("gives a user a timeline", async () => {
    const { rows } = await sql().query(
      "SELECT u.external_id FROM herald.users u JOIN herald.notifications n ON n.user_id = u.id GROUP BY u.external_id ORDER BY count(*) DESC LIMIT 1",
    );
    const page = await listUserNotifications(sql(), rows[0].external_id, { limit: 20 });
    expect(page.items.length).toBeGreaterThan(0);
  });

  it("refuses to fill a workspace that is not empty, and --reset fills it again from scratch", async () => {
    await expect(runDemo({ database, databaseUrl: testDatabase.url, defaultTimezone: TZ }, options)).rejects.toThrow(DemoRefusal);
    await expect(runDemo({ database, databaseUrl: testDatabase.url, defaultTimezone: TZ }, options)).rejects.toThrow(/not empty \(500 users, .*--reset/);
    const again = await runDemo({ database, databaseUrl: testDatabase.url, defaultTimezone: TZ }, { ...options, users: 50, days: 2, reset: true });
    expect(again.users).toBe(50);
    const counts = await one("SELECT (SELECT count(*) FROM herald.users)::int AS users, (SELECT count(*) FROM herald.broadcasts)::int AS broadcasts, (SELECT count(*) FROM herald.members WHERE email = $1)::int AS admins", [
      result.admin.email,
    ]);
    expect(counts).toEqual({ users: 50, broadcasts: 3, admins: 1 });
  }, 600_000);
});
