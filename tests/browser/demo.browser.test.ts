import fs from "node:fs";
import { completeFinishedBroadcasts, openDatabase, type Database } from "@herald/db";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDemo, type DemoResult } from "../../apps/server/src/demo/run-demo.ts";
import { launchChromium } from "./support/chromium.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

const EVENTUALLY = { timeout: 30_000 };

describe("A demo-filled workspace: Analytics, Broadcasts, Delivery and a user's timeline have something on them", () => {
  // The server runs while the demo fills its database, so its broadcast watch sees the A/B email
  // mid-send; at this size one complaint is over the 0.1 % limit and would pause it (the real
  // `pnpm demo` refuses to run beside a server, and no watch sees it sending).
  const herald = useHeraldServer({ env: { HERALD_BROADCAST_MAX_COMPLAINT_PERCENT: "100", HERALD_BROADCAST_MAX_BOUNCE_PERCENT: "100" } });
  let browser: Browser;
  let page: Page;
  let database: Database;
  let demo: DemoResult;
  beforeAll(async () => {
    browser = await launchChromium();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    database = openDatabase(herald.databaseUrl);
    // The test's server is already up; its workers only ever see the demo's rows once they are
    // settled (each simulated hour commits sent), so the live-server refusal is waived here.
    demo = await runDemo(
      { database, databaseUrl: herald.databaseUrl, defaultTimezone: "UTC" },
      { users: 400, days: 6, seed: 7, reset: false, progress: () => undefined, liveWorkerWithinMs: 0 },
    );
    // A fan-out chunk commits its rows before the demo sends them, and this server's pump may
    // hand some to its own workers first; the demo then cannot mark that broadcast sent, and the
    // watch would only do it at its next minute. Wait for those rows, then run the watch's query.
    for (let i = 0; i < 600; i++) {
      const { rows } = await database.pool.query("SELECT count(*)::int AS n FROM herald.notifications WHERE broadcast_id IS NOT NULL AND status = 'pending'");
      if (rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await completeFinishedBroadcasts(database.pool);
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
