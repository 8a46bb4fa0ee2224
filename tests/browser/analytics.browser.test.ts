import fs from "node:fs";
import path from "node:path";
import { openDatabase, type Database } from "@herald/db";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";

const EVENTUALLY = { timeout: 30_000 };
/** How the dashboard writes a rate: one decimal and a spaced percent sign, a dash when there is none. */
const formatRate = (share: number | null) => (share === null ? "—" : `${(share * 100).toFixed(1)} %`);
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

  async function shot(name: string) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  /** A table view's cells, row by row, as the page shows them. */
  async function tableCells(name: string): Promise<string[][]> {
    const table = page.getByRole("table", { name, exact: true });
    await table.waitFor();
    return table.locator("tbody tr").evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent ?? "")));
  }

  async function showTable(chart: string) {
    await page.getByRole("group", { name: `Show ${chart.toLowerCase()} as` }).getByRole("button", { name: "Table" }).click();
  }

  it("says there is nothing to chart on a fresh workspace", async () => {
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
    await fillFirstAdminForm(page, herald.url);
    await page.getByRole("button", { name: "Create admin" }).click();
    await page.waitForURL(/\/broadcasts$/);
    await page.getByRole("link", { name: "Analytics", exact: true }).click();
    await page.waitForURL(/\/analytics$/);
    await expect.poll(() => page.getByText("No sends in this range").count(), EVENTUALLY).toBe(4);
    await shot("90-analytics-empty");
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
    await shot("91-analytics-charts");

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
    await page.getByRole("table", { name: "Open and delivery rates" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ARTIFACTS, "92-analytics-tables.png"), fullPage: true });

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
    await page.getByRole("group", { name: "Show bounce rate as" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ARTIFACTS, "93-analytics-thresholds-and-versions.png"), fullPage: true });

    // Filtering to a channel that sent nothing empties every chart, with a way out.
    await page.getByLabel("Channel").selectOption("sms");
    await expect.poll(() => page.getByText("No sends in this range").count(), EVENTUALLY).toBe(4);
    await shot("94-analytics-filtered-empty");
  });
});
