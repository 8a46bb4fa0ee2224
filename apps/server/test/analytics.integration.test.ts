import {
  applyDispatchDecisions,
  applyStatusEvents,
  createBroadcast,
  createTemplate,
  fanOutChunk,
  ingestEvents,
  publishTemplateDraft,
  rebuildAnalytics,
  recordEngagement,
  transitionBroadcast,
} from "@herald/db";
import { describe, expect, it } from "vitest";
import { catchUpAnalytics } from "../src/analytics/catch-up-analytics.ts";
import { spawnEntry } from "./support/server-process.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcQuery } from "./support/trpc-http.ts";

describe("analytics router", () => {
  const server = useTestServer();
  const sql = () => server.database.pool;
  let cookie = "";
  let today = "";

  async function query(path: string, input: unknown) {
    const r = await trpcQuery(server.url, `analytics.${path}`, input, { cookie });
    if (r.error) throw new Error(`${path}: ${r.error.message}`);
    return r.data;
  }

  it("answers from a rollup the task keeps current", async () => {
    cookie = (await memberWithSession(server.database, "viewer")).cookie;
    await sql().query(`INSERT INTO herald.categories (key, label, tracking) VALUES ('marketing', 'Marketing', '{"opens": true, "clicks": true}')`);
    await sql().query(
      `INSERT INTO herald.notification_types (type, channels) VALUES ('promo', $1::jsonb)`,
      [JSON.stringify(["email", "sms"].map((channel) => ({ channel, category: "marketing", lane: "bulk", content: { subject: "Hi", title: "Hi", body: "Hi" } })))],
    );
    const made = await ingestEvents(sql(), Array.from({ length: 20 }, (_, i) => ({ eventId: `p-${i}`, type: "promo", userId: `u-${i}` })));
    const email = made.map((m) => m.notifications.find((n) => n.channel === "email")!.id);
    const sms = made.map((m) => m.notifications.find((n) => n.channel === "sms")!.id);
    // Two template versions side by side: the first ten emails on v1, the rest on v2.
    await sql().query("UPDATE herald.notifications SET template_key = 'promo', template_version = CASE WHEN id = ANY ($1::bigint[]) THEN 1 ELSE 2 END WHERE channel = 'email'", [
      email.slice(0, 10),
    ]);
    const sent = [...email.slice(0, 16), ...sms.slice(0, 5)];
    await applyDispatchDecisions(sql(), sent.map((id) => ({ id, kind: "attempt" as const, provider: "sandbox", address: `x${id}`, rendered: {} })));
    await applyDispatchDecisions(sql(), sent.map((id) => ({ id, kind: "sent" as const, provider: "sandbox", providerMessageId: `m-${id}`, latencyMs: 1 })));
    await applyStatusEvents(sql(), [
      ...email.slice(0, 12).map((id) => ({ providerMessageId: `m-${id}`, kind: "delivered" as const, at: new Date() })),
      ...email.slice(12, 16).map((id) => ({ providerMessageId: `m-${id}`, kind: "bounced" as const, at: new Date() })),
      { providerMessageId: `m-${email[0]}`, kind: "complaint" as const, at: new Date() },
    ]);
    for (const id of [...email.slice(0, 3), ...email.slice(10, 11)]) await recordEngagement(sql(), { notificationId: id, kind: "opened", countsAsFirst: true });
    await recordEngagement(sql(), { notificationId: email[1]!, kind: "clicked", countsAsFirst: true });
    const run = await catchUpAnalytics(sql(), { timeZone: async () => "UTC", budgetMs: 30_000 });
    expect(run).toMatchObject({ caughtUp: true, built: false });

    const overview = await query("overview", undefined);
    expect(overview).toMatchObject({ timeZone: "UTC", types: ["promo"], templates: [{ key: "promo", version: 1 }, { key: "promo", version: 2 }], broadcasts: [] });
    today = overview.today;

    const funnel = await query("funnel", { filter: { from: today, to: today } });
    const counts = (
      await sql().query(
        `SELECT channel, count(sent_at)::int AS sent, count(delivered_at)::int AS delivered, count(opened_at)::int AS opened, count(clicked_at)::int AS clicked
           FROM herald.notifications GROUP BY channel ORDER BY channel`,
      )
    ).rows;
    expect(funnel.channels.map((c: any) => ({ channel: c.channel, sent: c.counters.sent, delivered: c.counters.delivered, opened: c.counters.opened, clicked: c.counters.clicked }))).toEqual(counts);
    const emailRow = funnel.channels.find((c: any) => c.channel === "email");
    // Opens over delivered (4 of 12), not over sent (16); bounces over sent; complaints over delivered.
    expect(emailRow.rates).toMatchObject({ deliveryRate: 12 / 16, openRate: 4 / 12, clickRate: 1 / 12, bounceRate: 4 / 16, complaintRate: 1 / 12 });
    // Nothing delivered on SMS: no open rate at all, rather than 0 %.
    expect(funnel.channels.find((c: any) => c.channel === "sms").rates).toMatchObject({ deliveryRate: 0, openRate: null, complaintRate: null });
    expect(funnel.total.counters).toMatchObject({ created: 40, sent: 21, skipped: 0 });

    const versions = await query("compare", { filter: { from: today, to: today, channel: "email" }, by: "template_version" });
    expect(versions.groups.map((g: any) => [g.key, g.counters.delivered, g.counters.opened, g.rates.openRate])).toEqual([
      ["promo@1", 10, 3, 0.3],
      ["promo@2", 2, 1, 0.5],
    ]);
  });

  it("fills every day and week of a range, and counts a late open toward its send day", async () => {
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 9 * 86_400_000).toISOString().slice(0, 10);
    const days = await query("series", { filter: { from, to: today, channel: "email" }, granularity: "day" });
    expect(days.points).toHaveLength(10);
    expect(days.points.slice(0, 9).every((p: any) => p.counters.sent === 0 && p.rates.openRate === null)).toBe(true);
    expect(days.points[9]).toMatchObject({ bucket: today, counters: { sent: 16, delivered: 12, opened: 4 } });

    const { rows } = await sql().query("SELECT id FROM herald.notifications WHERE channel = 'email' AND status = 'delivered' AND opened_at IS NULL LIMIT 1");
    // As if it had been sent three days ago: the rollup is rebuilt to say so, then the open comes in today.
    await sql().query("UPDATE herald.notifications SET sent_at = sent_at - interval '3 days' WHERE id = $1", [rows[0].id]);
    await rebuildAnalytics(sql(), "UTC");
    await recordEngagement(sql(), { notificationId: rows[0].id, kind: "opened", countsAsFirst: true });
    await catchUpAnalytics(sql(), { timeZone: async () => "UTC", budgetMs: 30_000 });
    const after = await query("series", { filter: { from, to: today, channel: "email" }, granularity: "day" });
    expect(after.points[6].counters).toMatchObject({ sent: 1, delivered: 1, opened: 1 });
    expect(after.points[9].counters).toMatchObject({ sent: 15, opened: 4 });

    const weeks = await query("series", { filter: { from, to: today }, granularity: "week" });
    expect(weeks.points.map((p: any) => new Date(`${p.bucket}T00:00:00Z`).getUTCDay())).toEqual(weeks.points.map(() => 1));
    expect(weeks.points.reduce((n: number, p: any) => n + p.counters.sent, 0)).toBe(21);
  });

  it("refuses a bad filter, naming the field", async () => {
    const r = await trpcQuery(server.url, "analytics.series", { filter: { from: "2026-12-05", to: "2026-12-01" }, granularity: "hour" }, { cookie });
    expect(r.error?.data.code).toBe("BAD_REQUEST");
    expect(r.error?.message).toContain("filter.to: must not be before from");
    expect(r.error?.message).toContain("granularity: must be day or week");
  });

  it("rebuilds from the command line", async () => {
    const cli = spawnEntry("cli", ["analytics:rebuild"], { DATABASE_URL: server.databaseUrl });
    expect(await cli.exit).toBe(0);
    expect(cli.output()).toMatch(/Rebuilt \d+ daily rows from 40 notifications' events up to event \d+/);
    const funnel = await query("funnel", { filter: { from: "2026-01-01", to: "2027-12-31" } });
    expect(funnel.total.counters).toMatchObject({ created: 40, sent: 21, opened: 5, delivered: 12 });
  });

  it("compares broadcasts side by side, each with the numbers its notifications' event log holds", async () => {
    const marketer = (await memberWithSession(server.database, "marketer")).member;
    const segmentId = (await sql().query(`INSERT INTO herald.segments (name, rule) VALUES ('everyone', '{"kind": "and", "children": []}') RETURNING id::text`)).rows[0].id;
    await createTemplate(sql(), {
      key: "sale",
      name: "Sale",
      channels: ["email"],
      defaultCategory: null,
      defaultLocale: "en",
      memberId: marketer.id,
      draft: { variables: [], content: { en: { email: { subject: "Sale", html: "<p>Sale</p>" } } } },
    });
    await publishTemplateDraft(sql(), "sale", marketer.id, () => []);

    /** A broadcast to ten users of its own, fanned out (rows only, no send jobs) and all sent. */
    async function sentBroadcast(name: string, prefix: string): Promise<{ id: string; rows: string[] }> {
      await sql().query(
        "INSERT INTO herald.users (external_id, email) SELECT $1 || i, $1 || i || '@example.com' FROM generate_series(0, 9) i",
        [prefix],
      );
      const id = await createBroadcast(
        sql(),
        { name, segmentId, templateKey: "sale", variants: [{ version: 1, percent: 100 }], channels: ["email"], category: "marketing", lane: "bulk", holdoutPercent: 0, throttlePerMinute: null, data: {} },
        marketer.id,
      );
      await transitionBroadcast(sql(), id, ["draft"], "sending");
      const audience = { sql: "SELECT u.id AS user_id FROM herald.users u WHERE u.external_id LIKE $1", params: [`${prefix}%`] };
      expect(await fanOutChunk(sql(), id, audience, { kind: "instant", at: new Date() }, 100, null)).toMatchObject({ kind: "chunk", created: 10 });
      const rows = (await sql().query("SELECT id::text FROM herald.notifications WHERE broadcast_id = $1 ORDER BY id", [id])).rows.map((r) => r.id as string);
      await applyDispatchDecisions(sql(), rows.map((n) => ({ id: n, kind: "attempt" as const, provider: "sandbox", address: `x${n}`, rendered: {} })));
      await applyDispatchDecisions(sql(), rows.map((n) => ({ id: n, kind: "sent" as const, provider: "sandbox", providerMessageId: `m-${n}`, latencyMs: 1 })));
      return { id, rows };
    }
    const winter = await sentBroadcast("Winter sale", "winter-");
    const spring = await sentBroadcast("Spring sale", "spring-");
    const delivered = (rows: string[]) => rows.map((n) => ({ providerMessageId: `m-${n}`, kind: "delivered" as const, at: new Date() }));
    // Winter: 8 delivered, 6 of them opened (one twice). Spring: 5 delivered and 2 bounced, 1 opened,
    // and 3 opens fetched ahead of the reader by Apple's privacy proxy, which are not opens.
    await applyStatusEvents(sql(), [
      ...delivered(winter.rows.slice(0, 8)),
      ...delivered(spring.rows.slice(0, 5)),
      ...spring.rows.slice(5, 7).map((n) => ({ providerMessageId: `m-${n}`, kind: "bounced" as const, at: new Date() })),
    ]);
    for (const n of [...winter.rows.slice(0, 6), winter.rows[0]!, spring.rows[0]!]) await recordEngagement(sql(), { notificationId: n, kind: "opened", countsAsFirst: true });
    for (const n of spring.rows.slice(1, 4)) {
      await recordEngagement(sql(), { notificationId: n, kind: "opened", detail: { proxy: "apple_mpp", prefetch: true }, countsAsFirst: false });
    }
    await catchUpAnalytics(sql(), { timeZone: async () => "UTC", budgetMs: 30_000 });

    const compared = await query("compare", { filter: { from: today, to: today }, by: "broadcast" });
    // The same numbers counted straight from the event log: each notification once per kind of event.
    const { rows: truth } = await sql().query(
      `SELECT n.broadcast_id::text AS key, b.name AS label,
              count(DISTINCT e.notification_id) FILTER (WHERE e.type = 'sent')::int AS sent,
              count(DISTINCT e.notification_id) FILTER (WHERE e.type = 'delivered')::int AS delivered,
              count(DISTINCT e.notification_id) FILTER (WHERE e.type = 'bounced')::int AS bounced,
              count(DISTINCT e.notification_id) FILTER (WHERE e.type = 'opened' AND coalesce(e.detail ->> 'prefetch', '') <> 'true')::int AS opened,
              count(DISTINCT e.notification_id) FILTER (WHERE e.type = 'opened' AND e.detail ->> 'prefetch' = 'true')::int AS opened_by_proxy
         FROM herald.notification_events e JOIN herald.notifications n ON n.id = e.notification_id JOIN herald.broadcasts b ON b.id = n.broadcast_id
        GROUP BY 1, 2 ORDER BY 1`,
    );
    expect(truth).toEqual([
      { key: winter.id, label: "Winter sale", sent: 10, delivered: 8, bounced: 0, opened: 6, opened_by_proxy: 0 },
      { key: spring.id, label: "Spring sale", sent: 10, delivered: 5, bounced: 2, opened: 1, opened_by_proxy: 3 },
    ]);
    expect(
      compared.groups.map((g: any) => ({
        key: g.key,
        label: g.label,
        sent: g.counters.sent,
        delivered: g.counters.delivered,
        bounced: g.counters.bounced,
        opened: g.counters.opened,
        opened_by_proxy: g.counters.opened_by_proxy,
      })),
    ).toEqual(truth);
    // Opens over delivered: 6 of 8 against 1 of 5; notifications outside any broadcast are no group.
    expect(compared.groups.map((g: any) => [g.key, g.rates.openRate, g.rates.deliveryRate, g.rates.bounceRate])).toEqual([
      [winter.id, 6 / 8, 8 / 10, 0],
      [spring.id, 1 / 5, 5 / 10, 2 / 10],
    ]);

    // One broadcast picked in the filter: only its row.
    const one = await query("compare", { filter: { from: today, to: today, broadcastId: spring.id }, by: "broadcast" });
    expect(one.groups.map((g: any) => [g.key, g.counters.opened])).toEqual([[spring.id, 1]]);
  });
});
