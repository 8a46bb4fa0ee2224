import fs from "node:fs";
import { openDatabase, type Database } from "@herald/db";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDemo, type DemoResult } from "../../apps/server/src/demo/run-demo.ts";
import { launchChromium } from "./support/chromium.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

const EVENTUALLY = { timeout: 30_000 };

describe("A demo-filled workspace: Analytics, Broadcasts, Delivery and a user's timeline have something on them", () => {
  // An API-only server: with workers, its pump handed some of the demo's rows to them while the
  // demo filled the database, and they judged them at the real time of day (a recipient in
  // quiet hours now left a broadcast sending for hours, failing this test at some hours).
  const herald = useHeraldServer({ env: { HERALD_ROLE: "api" } });
  let browser: Browser;
  let page: Page;
  let database: Database;
  let demo: DemoResult;
  beforeAll(async () => {
    browser = await launchChromium();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    database = openDatabase(herald.databaseUrl);
    // As `pnpm demo` does: refused if a live worker used this database (this server has none).
    demo = await runDemo(
      { database, databaseUrl: herald.databaseUrl, defaultTimezone: "UTC" },
      { users: 400, days: 6, seed: 7, reset: false, progress: () => undefined, liveWorkerWithinMs: 45_000 },
    );
  }, 600_000);
  afterAll(async () => {
    await database?.close();
    await browser?.close();
  });

  it("signs in as the demo admin and shows the charts, the broadcasts, the delivery page and a timeline", async () => {
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await page.goto(`${herald.url}/sign-in`);
    await page.getByLabel("Email").fill(demo.admin.email);
    await page.getByLabel("Password").fill(demo.admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/broadcasts$/);
    for (const name of ["Winter sale — subject line A/B", "Speaking practice launch", "We miss you"]) {
      await expect.poll(() => page.getByText(name).first().isVisible(), EVENTUALLY).toBe(true);
    }
    await expect.poll(() => page.getByRole("table").getByText("Sent", { exact: true }).count(), EVENTUALLY).toBe(3);
    await screenshot(page, "demo-01-broadcasts");

    await page.goto(`${herald.url}/analytics`);
    await expect.poll(() => page.getByText("No sends in this range").count(), EVENTUALLY).toBe(0);
    await page.waitForTimeout(1500);
    await screenshot(page, "demo-02-analytics");

    await page.goto(`${herald.url}/delivery/overview`);
    await page.waitForTimeout(2000);
    await screenshot(page, "demo-03-delivery");

    const { rows } = await database.pool.query(
      "SELECT u.external_id FROM herald.users u JOIN herald.notifications n ON n.user_id = u.id GROUP BY u.external_id ORDER BY count(*) DESC LIMIT 1",
    );
    await page.goto(`${herald.url}/users?user=${rows[0].external_id}`);
    await expect.poll(() => page.getByText(rows[0].external_id).first().isVisible(), EVENTUALLY).toBe(true);
    await page.waitForTimeout(2000);
    await screenshot(page, "demo-04-user-timeline");
  });
});
