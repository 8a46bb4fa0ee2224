import fs from "node:fs";
import { openDatabase, type Database } from "@herald/db";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

const EVENTUALLY = { timeout: 30_000 };
/** How the dashboard writes a rate: one decimal and a spaced percent sign, a dash when there is none. */
const formatRate = (share: number | null, decimals = 1) => (share === null ? "—" : `${(share * 100).toFixed(decimals)} %`);
/** A ratio as the dashboard shows it: no denominator, no rate. */
const rateOf = (numerator: number, denominator: number, decimals = 1) => formatRate(denominator ? numerator / denominator : null, decimals);
const formatCount = (n: number) => n.toLocaleString("en-US");
/** A cell as the dashboard's CSV writes it: quoted when a spreadsheet would split it or read a formula. */
const csvCell = (text: string) => (/[",\n\r]/.test(text) || /^[=+\-@]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
// The rollup task runs once a minute.
const UNTIL_ROLLED_UP = { timeout: 100_000, interval: 1_000 };

describe("Analytics: the funnel and the open-rate chart show what the database holds", () => {
  const herald = useHeraldServer();
  let browser: Browser;
  let page: Page;
  let database: Database;
  beforeAll(async () => {
    browser = await launchChromium();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    database = openDatabase(herald.databaseUrl);
  });
  afterAll(async () => {
    await database?.close();
    await browser?.close();
  });

  /** A table view's cells, row by row, as the page shows them. */
  async function tableCells(name: string): Promise<string[][]> {
    const table = page.getByRole("table", { name, exact: true });
    await table.waitFor();
    return table.locator("tbody tr").evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent ?? "")));
  }

  /** A table view's column headings. */
  async function tableHeadings(name: string): Promise<string[]> {
    return page.getByRole("table", { name, exact: true }).locator("thead th").allTextContents();
  }

  async function showTable(chart: string) {
    await page.getByRole("group", { name: `Show ${chart.toLowerCase()} as` }).getByRole("button", { name: "Table" }).click();
  }

  /** Clicks a chart card's "Download CSV" and reads what the browser saved. */
  async function downloadCsv(chart: string): Promise<{ name: string; text: string }> {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("region", { name: chart, exact: true }).getByRole("button", { name: "Download CSV" }).click(),
    ]);
    return { name: download.suggestedFilename(), text: fs.readFileSync((await download.path())!, "utf8") };
  }

  /** Waits until the once-a-minute rollup task has folded in every event logged so far. */
  async function untilRolledUp() {
    const { rows: marks } = await database.pool.query<{ max: string }>("SELECT max(id)::text AS max FROM herald.notification_events");
    await expect
      .poll(async () => (await database.pool.query("SELECT last_event_id::text AS id FROM herald.analytics_state")).rows[0].id, UNTIL_ROLLED_UP)
      .toBe(marks[0]!.max);
  }

  it("says there is nothing to chart on a fresh workspace", async () => {
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
    await fillFirstAdminForm(page, herald.url);
    await page.getByRole("button", { name: "Create admin" }).click();
    await page.waitForURL(/\/broadcasts$/);
    await page.getByRole("link", { name: "Analytics", exact: true }).click();
    await page.waitForURL(/\/analytics$/);
    await expect.poll(() => page.getByText("No sends in this range").count(), EVENTUALLY).toBe(4);
    await screenshot(page, "90-analytics-empty");
  });

  it("renders the funnel and the open rate per day with the numbers a SQL count gives", async () => {
    // Ten days of a weekly digest on email and push from two template versions: a factory that
    // writes notifications and their event logs as the pipeline would have, for the rollup task to fold in.
    const sql = database.pool;
    await sql.query("INSERT INTO herald.categories (key, label) VALUES ('marketing', 'Marketing') ON CONFLICT DO NOTHING");
    await sql.query(
      `WITH made AS (
         INSERT INTO herald.notifications (dedup_key, type, channel, category, status, dispatch_state, template_key, template_version,
                                           created_at, sent_at, delivered_at, opened_at, clicked_at, failed_at)
         SELECT 'digest:' || i, 'weekly.digest', CASE WHEN i % 4 = 0 THEN 'push' ELSE 'email' END, 'marketing',
                CASE WHEN i % 13 = 0 THEN 'bounced' WHEN i % 3 = 0 THEN 'sent' ELSE 'delivered' END, 'done', 'digest', 1 + i % 2,
                t, t + interval '1 second',
                CASE WHEN i % 13 <> 0 AND i % 3 <> 0 THEN t + interval '5 seconds' END,
                CASE WHEN i % 13 <> 0 AND i % 3 <> 0 AND i % 5 < 2 + (i / 40)::int % 3 THEN t + interval '1 hour' END,
                CASE WHEN i % 13 <> 0 AND i % 3 <> 0 AND i % 5 = 0 THEN t + interval '2 hours' END,
                CASE WHEN i % 13 = 0 THEN t + interval '5 seconds' END
           FROM generate_series(1, 400) AS i,
                LATERAL (SELECT date_trunc('day', now()) - make_interval(days => i % 10) + make_interval(mins => i) AS t) AS at
         RETURNING id, created_at, sent_at, delivered_at, opened_at, clicked_at, failed_at
       )
       INSERT INTO herald.notification_events (notification_id, type, at, detail)
       SELECT id, 'created', created_at, '{}'::jsonb FROM made
       UNION ALL SELECT id, 'sent', sent_at, '{}' FROM made
       UNION ALL SELECT id, 'delivered', delivered_at, '{}' FROM made WHERE delivered_at IS NOT NULL
       UNION ALL SELECT id, 'bounced', failed_at, '{}' FROM made WHERE failed_at IS NOT NULL
       UNION ALL SELECT id, 'opened', opened_at, '{}' FROM made WHERE opened_at IS NOT NULL
       UNION ALL SELECT id, 'opened', opened_at, '{}' FROM made WHERE opened_at IS NOT NULL AND id % 2 = 0
       UNION ALL SELECT id, 'opened', delivered_at, '{"proxy": "apple_mpp", "prefetch": true}' FROM made WHERE delivered_at IS NOT NULL AND id % 7 = 0
       UNION ALL SELECT id, 'clicked', clicked_at, '{}' FROM made WHERE clicked_at IS NOT NULL`,
    );
    const { rows: marks } = await sql.query<{ max: string }>("SELECT max(id)::text AS max FROM herald.notification_events");
    await expect
      .poll(async () => (await sql.query("SELECT last_event_id::text AS id FROM herald.analytics_state")).rows[0].id, UNTIL_ROLLED_UP)
      .toBe(marks[0]!.max);

    await page.reload();
    await page.getByRole("region", { name: "Funnel" }).locator(".recharts-bar-rectangle").first().waitFor(EVENTUALLY);
    await page.getByRole("region", { name: "Open and delivery rates" }).locator(".recharts-line-curve").first().waitFor(EVENTUALLY);
    await screenshot(page, "91-analytics-charts");

    // The funnel's table against a count of the notifications themselves.
    await showTable("Funnel");
    const funnel = await tableCells("Funnel");
    const { rows: counted } = await sql.query(
      `SELECT channel, count(sent_at)::int AS sent, count(delivered_at)::int AS delivered, count(opened_at)::int AS opened, count(clicked_at)::int AS clicked
         FROM herald.notifications WHERE sent_at >= date_trunc('day', now()) - interval '29 days' GROUP BY channel ORDER BY channel`,
    );
    const label: Record<string, string> = { email: "Email", push: "Push" };
    expect(counted).toHaveLength(2);
    for (const c of counted) {
      const row = funnel.find((r) => r[0] === label[c.channel]);
      expect(row?.slice(0, 8)).toEqual([
        label[c.channel],
        c.sent.toLocaleString("en-US"),
        c.delivered.toLocaleString("en-US"),
        c.opened.toLocaleString("en-US"),
        c.clicked.toLocaleString("en-US"),
        formatRate(c.delivered / c.sent),
        formatRate(c.opened / c.delivered),
        formatRate(c.clicked / c.delivered),
      ]);
    }

    // The open-rate chart's table, day by day, against opens over deliveries per send day.
    await showTable("Open and delivery rates");
    const days = await tableCells("Open and delivery rates");
    expect(days).toHaveLength(30);
    const { rows: perDay } = await sql.query(
      `SELECT to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(sent_at)::int AS sent, count(delivered_at)::int AS delivered, count(opened_at)::int AS opened
         FROM herald.notifications GROUP BY 1 ORDER BY 1`,
    );
    expect(perDay).toHaveLength(10);
    for (const d of perDay) {
      expect(days.find((r) => r[0] === d.day)).toEqual([
        d.day,
        d.sent.toLocaleString("en-US"),
        d.delivered.toLocaleString("en-US"),
        d.opened.toLocaleString("en-US"),
        formatRate(d.delivered / d.sent),
        formatRate(d.delivered ? d.opened / d.delivered : null),
      ]);
    }
    // A day without sends has no rate, shown as a dash.
    expect(days.filter((r) => r[1] === "0").every((r) => r[4] === "—" && r[5] === "—")).toBe(true);
    await screenshot(page, "92-analytics-tables");

    // The CSV holds what the table shows.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("region", { name: "Funnel" }).getByRole("button", { name: "Download CSV" }).click(),
    ]);
    const csv = fs.readFileSync((await download.path())!, "utf8");
    const email = funnel.find((r) => r[0] === "Email")!;
    expect(csv.split("\n")[0]).toBe("Channel,Sent,Delivered,Opened,Clicked,Delivery rate,Open rate,Click rate,Opened by privacy proxies");
    expect(csv).toContain(email.map((cell) => (cell.includes(",") ? `"${cell}"` : cell)).join(","));
  });

  it("shows bounces and complaints against the providers' lines, and template versions side by side", async () => {
    await expect.poll(() => page.getByText("SES review 5 %").isVisible(), EVENTUALLY).toBe(true);
    await expect.poll(() => page.getByText("Gmail/Yahoo limit 0.3 %").isVisible(), EVENTUALLY).toBe(true);
    await showTable("Template versions side by side");
    const versions = await tableCells("Template versions side by side");
    expect(versions.map((r) => r[0])).toEqual(["digest@1", "digest@2"]);
    const { rows } = await database.pool.query(
      `SELECT template_version AS v, count(delivered_at)::int AS delivered, count(opened_at)::int AS opened FROM herald.notifications
        WHERE sent_at >= date_trunc('day', now()) - interval '29 days' GROUP BY 1 ORDER BY 1`,
    );
    expect(versions.map((r) => [r[2], r[3], r[6]])).toEqual(rows.map((r) => [String(r.delivered), String(r.opened), formatRate(r.opened / r.delivered)]));
    await page.getByRole("group", { name: "Show template versions side by side as" }).getByRole("button", { name: "Chart" }).click();
    await screenshot(page, "93-analytics-thresholds-and-versions");

    // Filtering to a channel that sent nothing empties every chart, with a way out.
    await page.getByLabel("Channel").selectOption("sms");
    await expect.poll(() => page.getByText("No sends in this range").count(), EVENTUALLY).toBe(4);
    await screenshot(page, "94-analytics-filtered-empty");
  });

  /** Per send day or ISO week (UTC, the workspace's zone) from the range's first day: the counts each rate divides, from the notifications and their logs. */
  async function countedPer(unit: "day" | "week") {
    const { rows } = await database.pool.query<{ bucket: string; sent: number; delivered: number; opened: number; bounced: number; complained: number }>(
      `SELECT to_char(date_trunc($1, n.sent_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS bucket,
              count(n.sent_at)::int AS sent, count(n.delivered_at)::int AS delivered, count(n.opened_at)::int AS opened,
              count(*) FILTER (WHERE EXISTS (SELECT 1 FROM herald.notification_events e WHERE e.notification_id = n.id AND e.type = 'bounced'))::int AS bounced,
              count(*) FILTER (WHERE EXISTS (SELECT 1 FROM herald.notification_events e WHERE e.notification_id = n.id AND e.type = 'complaint'))::int AS complained
         FROM herald.notifications n WHERE n.sent_at >= date_trunc('day', now()) - interval '29 days' GROUP BY 1 ORDER BY 1`,
      [unit],
    );
    return rows;
  }

  it("compares two broadcasts side by side with the open rates a SQL count gives", async () => {
    // Two past broadcasts with different open rates, some bounces and a few spam complaints (one
    // reported twice: it counts once), written as the pipeline would have for the rollup to fold in.
    const sql = database.pool;
    await sql.query(
      `WITH segment AS (INSERT INTO herald.segments (name, rule) VALUES ('Everyone', '{"all": []}') RETURNING id),
            template AS (INSERT INTO herald.templates (key, name, channels, default_locale) VALUES ('announce', 'Announcement', '{email}', 'en') RETURNING key)
       INSERT INTO herald.broadcasts (name, status, segment_id, template_key, variants, channels, category)
       SELECT b.name, 'sent', segment.id, template.key, '[{"version": 1}]', '{email}', 'marketing'
         FROM segment, template, (VALUES ('Spring sale'), ('Winter digest')) AS b(name)`,
    );
    await sql.query(
      `WITH made AS (
         INSERT INTO herald.notifications (dedup_key, type, channel, category, status, dispatch_state, template_key, template_version, broadcast_id,
                                           created_at, sent_at, delivered_at, opened_at, clicked_at, failed_at)
         SELECT 'broadcast:' || b.id || ':' || i, 'broadcast', 'email', 'marketing', CASE WHEN i % 10 = 0 THEN 'bounced' ELSE 'delivered' END,
                'done', 'announce', 1, b.id, t, t + interval '1 second',
                CASE WHEN i % 10 <> 0 THEN t + interval '5 seconds' END,
                CASE WHEN i % 10 <> 0 AND i % b.opens_every = 0 THEN t + interval '1 hour' END,
                CASE WHEN i % 10 <> 0 AND i % (3 * b.opens_every) = 0 THEN t + interval '2 hours' END,
                CASE WHEN i % 10 = 0 THEN t + interval '5 seconds' END
           FROM (SELECT id, CASE name WHEN 'Spring sale' THEN 2 ELSE 5 END AS opens_every, CASE name WHEN 'Spring sale' THEN 120 ELSE 80 END AS size
                   FROM herald.broadcasts) AS b,
                LATERAL generate_series(1, b.size) AS i,
                LATERAL (SELECT date_trunc('day', now()) - make_interval(days => i % 12) + make_interval(mins => i) AS t) AS at
         RETURNING id, created_at, sent_at, delivered_at, opened_at, clicked_at, failed_at
       )
       INSERT INTO herald.notification_events (notification_id, type, at, detail)
       SELECT id, 'created', created_at, '{}'::jsonb FROM made
       UNION ALL SELECT id, 'sent', sent_at, '{}' FROM made
       UNION ALL SELECT id, 'delivered', delivered_at, '{}' FROM made WHERE delivered_at IS NOT NULL
       UNION ALL SELECT id, 'bounced', failed_at, '{}' FROM made WHERE failed_at IS NOT NULL
       UNION ALL SELECT id, 'opened', opened_at, '{}' FROM made WHERE opened_at IS NOT NULL
       UNION ALL SELECT id, 'clicked', clicked_at, '{}' FROM made WHERE clicked_at IS NOT NULL
       UNION ALL SELECT id, 'complaint', delivered_at + interval '3 hours', '{}' FROM made WHERE delivered_at IS NOT NULL AND id % 9 = 0
       UNION ALL SELECT id, 'complaint', delivered_at + interval '4 hours', '{}' FROM made WHERE delivered_at IS NOT NULL AND id % 18 = 0`,
    );
    await untilRolledUp();

    await page.reload();
    await page.getByRole("group", { name: "Compare" }).getByRole("button", { name: "Per broadcast" }).click();
    const compared = page.getByRole("region", { name: "Broadcasts side by side" });
    await compared.locator(".recharts-bar-rectangle").first().waitFor(EVENTUALLY);
    await screenshot(page, "95-analytics-per-broadcast");

    await showTable("Broadcasts side by side");
    const broadcasts = await tableCells("Broadcasts side by side");
    const { rows } = await sql.query(
      `SELECT b.name, count(n.sent_at)::int AS sent, count(n.delivered_at)::int AS delivered, count(n.opened_at)::int AS opened,
              count(n.clicked_at)::int AS clicked, count(n.failed_at)::int AS bounced
         FROM herald.notifications n JOIN herald.broadcasts b ON b.id = n.broadcast_id
        WHERE n.sent_at >= date_trunc('day', now()) - interval '29 days' GROUP BY b.id, b.name ORDER BY b.id`,
    );
    expect(rows.map((r) => r.name)).toEqual(["Spring sale", "Winter digest"]);
    expect(broadcasts).toEqual(
      rows.map((r) => [
        r.name,
        formatCount(r.sent),
        formatCount(r.delivered),
        formatCount(r.opened),
        formatCount(r.clicked),
        rateOf(r.delivered, r.sent),
        rateOf(r.opened, r.delivered),
        rateOf(r.clicked, r.delivered),
        rateOf(r.bounced, r.sent),
      ]),
    );
    // The point of the view: the two open rates differ, and each is over its own deliveries.
    expect(broadcasts[0]![6]).not.toBe(broadcasts[1]![6]);
    await screenshot(page, "96-analytics-per-broadcast-table");
  });

  it("shows each day's bounce rate over sent and complaint rate over delivered as a SQL count gives them", async () => {
    await showTable("Bounce rate");
    await showTable("Complaint rate");
    expect(await tableHeadings("Bounce rate")).toEqual(["Day", "Sent", "Bounced", "Bounce rate"]);
    expect(await tableHeadings("Complaint rate")).toEqual(["Day", "Delivered", "Complaints", "Complaint rate"]);
    const bounces = await tableCells("Bounce rate");
    const complaints = await tableCells("Complaint rate");
    expect(bounces).toHaveLength(30);
    expect(complaints).toHaveLength(30);
    const days = await countedPer("day");
    expect(days).toHaveLength(12);
    for (const d of days) {
      expect(bounces.find((r) => r[0] === d.bucket)).toEqual([d.bucket, formatCount(d.sent), formatCount(d.bounced), rateOf(d.bounced, d.sent)]);
      // Complaint rates sit near Gmail's 0.3 %: two decimals.
      expect(complaints.find((r) => r[0] === d.bucket)).toEqual([d.bucket, formatCount(d.delivered), formatCount(d.complained), rateOf(d.complained, d.delivered, 2)]);
    }
    // The seed has complaints and bounces on most days: rates of zero everywhere would not be checking much.
    expect(days.filter((d) => d.complained > 0).length).toBeGreaterThan(3);
    expect(days.filter((d) => d.bounced > 0).length).toBeGreaterThan(3);
    // Days without a send have neither rate.
    const quiet = bounces.filter((r) => r[1] === "0").map((r) => r[0]);
    expect(quiet).toHaveLength(18);
    expect(quiet.every((day) => bounces.find((r) => r[0] === day)![3] === "—" && complaints.find((r) => r[0] === day)![3] === "—")).toBe(true);
    await screenshot(page, "97-analytics-bounce-complaint-tables");
  });

  it("groups the rate charts by week: one row per ISO week of the range, with that week's SQL counts", async () => {
    await page.getByRole("group", { name: "Granularity" }).getByRole("button", { name: "By week" }).click();
    await showTable("Open and delivery rates");
    await expect.poll(() => tableHeadings("Open and delivery rates"), EVENTUALLY).toEqual(["Week of", "Sent", "Delivered", "Opened", "Delivery rate", "Open rate"]);
    const weeks = await tableCells("Open and delivery rates");
    const bounces = await tableCells("Bounce rate");
    // Every Monday whose week overlaps the 30 days, the first one possibly before the range starts.
    const { rows: mondays } = await database.pool.query<{ week: string }>(
      `SELECT DISTINCT to_char(date_trunc('week', d), 'YYYY-MM-DD') AS week
         FROM generate_series(date_trunc('day', now()) - interval '29 days', date_trunc('day', now()), interval '1 day') AS d ORDER BY 1`,
    );
    expect(weeks.map((r) => r[0])).toEqual(mondays.map((m) => m.week));
    expect(bounces.map((r) => r[0])).toEqual(mondays.map((m) => m.week));
    const counts = await countedPer("week");
    expect(counts.length).toBeGreaterThanOrEqual(2);
    for (const w of counts) {
      expect(weeks.find((r) => r[0] === w.bucket)).toEqual([
        w.bucket,
        formatCount(w.sent),
        formatCount(w.delivered),
        formatCount(w.opened),
        rateOf(w.delivered, w.sent),
        rateOf(w.opened, w.delivered),
      ]);
      expect(bounces.find((r) => r[0] === w.bucket)).toEqual([w.bucket, formatCount(w.sent), formatCount(w.bounced), rateOf(w.bounced, w.sent)]);
    }
    expect(weeks.filter((r) => !counts.some((w) => w.bucket === r[0])).every((r) => r[1] === "0" && r[4] === "—" && r[5] === "—")).toBe(true);
    await screenshot(page, "98-analytics-by-week");
  });

  it("exports every chart as a CSV holding exactly what its table shows", async () => {
    const { from, to } = (
      await database.pool.query<{ from: string; to: string }>(
        `SELECT to_char(now() AT TIME ZONE 'UTC' - interval '29 days', 'YYYY-MM-DD') AS from, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS to`,
      )
    ).rows[0]!;
    const range = `${from}–${to}`;
    async function expectCsvOfTable(chart: string, fileName: string) {
      await showTable(chart);
      const headings = await tableHeadings(chart);
      const cells = await tableCells(chart);
      expect(cells.length).toBeGreaterThan(0);
      const csv = await downloadCsv(chart);
      expect(csv.name).toBe(fileName);
      expect(csv.text).toBe([headings, ...cells].map((row) => row.map(csvCell).join(",")).join("\n") + "\n");
      return cells;
    }
    await expectCsvOfTable("Funnel", `funnel-${range}.csv`);
    await expectCsvOfTable("Open and delivery rates", `open-delivery-rates-week-${range}.csv`);
    await expectCsvOfTable("Bounce rate", `bounce-rate-week-${range}.csv`);
    await expectCsvOfTable("Complaint rate", `complaint-rate-week-${range}.csv`);
    const broadcasts = await expectCsvOfTable("Broadcasts side by side", `compare-broadcast-${range}.csv`);
    expect(broadcasts.map((r) => r[0])).toEqual(["Spring sale", "Winter digest"]);

    await page.getByRole("group", { name: "Compare" }).getByRole("button", { name: "Per template version" }).click();
    await page.getByRole("table", { name: "Template versions side by side" }).waitFor(EVENTUALLY);
    const versions = await expectCsvOfTable("Template versions side by side", `compare-template_version-${range}.csv`);
    const { rows } = await database.pool.query(
      `SELECT template_key || '@' || template_version AS version, count(sent_at)::int AS sent, count(delivered_at)::int AS delivered, count(opened_at)::int AS opened
         FROM herald.notifications WHERE sent_at >= date_trunc('day', now()) - interval '29 days' GROUP BY 1 ORDER BY 1`,
    );
    expect(versions.map((r) => [r[0], r[1], r[2], r[3], r[6]])).toEqual(
      rows.map((r) => [r.version, formatCount(r.sent), formatCount(r.delivered), formatCount(r.opened), rateOf(r.opened, r.delivered)]),
    );
    await screenshot(page, "99-analytics-all-tables");
  });
});
