import fs from "node:fs";
import { openDatabase, type Database } from "@herald/db";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

// The alert evaluation, a worker job and the page's polling take seconds on a busy machine.
const EVENTUALLY = { timeout: 45_000 };

describe("the Delivery page: backlog, an open breaker, an alert, and a dead letter replayed from it", () => {
  const herald = useHeraldServer();
  let browser: Browser;
  let database: Database;
  beforeAll(async () => {
    browser = await launchChromium();
    database = openDatabase(herald.databaseUrl);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await database?.close();
  });

  it("shows the machine's state as an admin sees it, raises the alert banner, and replays a dead letter", async () => {
    const sql = database.pool;
    await sql.query(`
      INSERT INTO herald.categories (key, label) VALUES ('orders', 'Orders');
      INSERT INTO herald.users (external_id, email) VALUES ('u-ops', 'grace@example.com');
      -- 40 bulk emails holding a job for 20 minutes (a stuck worker, not reaped yet): the backlog.
      INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, lane, status, dispatch_state, content, next_attempt_at, job_queued_at)
        SELECT 'stuck-' || g, (SELECT id FROM herald.users WHERE external_id = 'u-ops'), 'order.paid', 'email', 'orders', 'bulk', 'pending', 'in_flight',
               '{"subject": "Paid", "body": "Thanks"}', now() - interval '20 minutes', now()
          FROM generate_series(1, 40) g;
      -- A dead letter to replay: the sandbox sends it this time.
      INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, status, reason, dispatch_state, content, attempt_count, last_error)
        VALUES ('dead-1', (SELECT id FROM herald.users WHERE external_id = 'u-ops'), 'order.paid', 'email', 'orders', 'dead', 'provider_rejected:MessageRejected',
                'done', '{"subject": "Paid", "body": "Thanks"}', 3, 'MessageRejected');
      -- A provider this workspace does not send through, its circuit open for 10 minutes.
      INSERT INTO herald.provider_breakers (breaker_key, state, consecutive_failures, opened_at, reason) VALUES ('ses-email', 'open', 5, now() - interval '10 minutes', 'timeout');
      INSERT INTO herald.webhook_events (provider, event_key, kind, provider_message_id, raw, state)
        VALUES ('ses', 'sns-orphan-1', 'bounce', '0100018c-unknown', '{"eventType":"Bounce"}', 'orphan');
      -- Evaluate the alerts now rather than at the next minute.
      SELECT graphile_worker.add_job('evaluate_alerts');`);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await fillFirstAdminForm(page, herald.url);
    await page.getByRole("button", { name: "Create admin" }).click();
    await page.waitForURL(/\/broadcasts$/);

    // The banner is on every page for operators and admins.
    const banner = page.getByRole("alert").filter({ hasText: /alerts? (is|are) open/ });
    await expect.poll(() => banner.textContent(), EVENTUALLY).toMatch(/2 alerts are open/);

    await page.getByRole("link", { name: "Delivery" }).click();
    await page.waitForURL(/\/delivery\/overview$/);
    const emailBulk = page.locator('tr[data-lane="email:bulk"]');
    await expect.poll(() => emailBulk.textContent(), EVENTUALLY).toContain("40");
    const cells = await emailBulk.locator("td").allTextContents();
    // Channel, lane, waiting, in flight, oldest due.
    expect(cells.slice(1, 5)).toEqual(["Bulk", "0", "40", "20 min"]);
    const ses = page.locator('tr[data-provider="ses-email"]');
    await expect.poll(() => ses.textContent(), EVENTUALLY).toContain("Open");
    expect(await ses.textContent()).toContain("since 10 minutes ago");
    await screenshot(page, "40-delivery-overview");

    await page.getByRole("link", { name: "Alerts", exact: true }).click();
    await page.waitForURL(/\/delivery\/alerts$/);
    const alerts = page.getByRole("table", { name: "Alerts" });
    await expect.poll(() => alerts.textContent(), EVENTUALLY).toContain("The ses-email circuit has been open for 10 minutes (threshold 5)");
    expect(await alerts.textContent()).toContain("The bulk email backlog's oldest notification has waited 20 minutes (threshold 10)");
    await screenshot(page, "41-delivery-alerts");

    await page.getByRole("link", { name: "Orphaned webhooks" }).click();
    await expect.poll(() => page.getByRole("table", { name: "Orphaned webhooks" }).textContent(), EVENTUALLY).toContain("0100018c-unknown");
    await screenshot(page, "42-orphaned-webhooks");

    await page.getByRole("link", { name: "Dead letters" }).click();
    const deadRow = page.getByRole("row").filter({ hasText: "u-ops" }).filter({ hasText: "order.paid" });
    await expect.poll(() => deadRow.textContent(), EVENTUALLY).toContain("provider_rejected:MessageRejected");
    await deadRow.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Replay selected (1)" }).click();
    await page.getByRole("dialog", { name: "Replay 1 dead letter?" }).getByRole("button", { name: "Replay" }).click();
    await expect.poll(() => page.getByText("Replayed 1 notification").isVisible(), EVENTUALLY).toBe(true);
    await expect
      .poll(async () => (await sql.query("SELECT status FROM herald.notifications WHERE dedup_key = 'dead-1'")).rows[0].status, EVENTUALLY)
      .toMatch(/^(sent|delivered)$/);
    await screenshot(page, "43-dead-letter-replayed");

    // The breaker closes: the next evaluation resolves its alert, and the banner counts one.
    await sql.query("UPDATE herald.provider_breakers SET state = 'closed', opened_at = NULL WHERE breaker_key = 'ses-email'; SELECT graphile_worker.add_job('evaluate_alerts');");
    await page.getByRole("link", { name: "Alerts", exact: true }).click();
    await expect.poll(() => banner.textContent(), EVENTUALLY).toMatch(/^1 alert is open/);
    await expect.poll(() => alerts.getByRole("row").filter({ hasText: "ses-email" }).textContent(), EVENTUALLY).toContain("Resolved");
    await screenshot(page, "44-alert-resolved");
  });
});
