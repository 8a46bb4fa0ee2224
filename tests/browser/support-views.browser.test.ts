import fs from "node:fs";
import path from "node:path";
import { ingestEvents, openDatabase, type Database } from "@herald/db";
import { seedSupportWorkspace } from "@herald/db/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";

// Generous: on a busy machine password hashing and the worker's first pass take seconds.
const EVENTUALLY = { timeout: 30_000 };

describe("support: find a user, read the timeline, Explain each gate, edit a preference, lift a suppression, resend", () => {
  const herald = useHeraldServer();
  let browser: Browser;
  let page: Page;
  let database: Database;

  beforeAll(async () => {
    browser = await launchChromium();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    database = openDatabase(herald.databaseUrl);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await fillFirstAdminForm(page, herald.url);
    await page.getByRole("button", { name: "Create admin" }).click();
    await page.waitForURL(/\/broadcasts$/);
    // The server's workers send these through the sandbox: the timeline has real outcomes.
    await seedSupportWorkspace(database.pool);
    await ingestEvents(database.pool, [
      { eventId: "promo-1", type: "promo.weekly", userId: "ada", data: {} },
      { eventId: "login-1", type: "security.login", userId: "ada", data: {} },
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await database?.close();
  });

  async function shot(name: string) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  async function openUser(query: string, externalId: string) {
    await page.getByRole("link", { name: "Users" }).click();
    await page.getByLabel("User id, email or phone").fill(query);
    const result = page.getByRole("list", { name: "Matching users" }).getByRole("button").filter({ hasText: externalId });
    await result.waitFor(EVENTUALLY);
    await result.click();
    await page.waitForURL(new RegExp(`/users\\?user=${externalId}$`));
  }

  async function explain(options: { type: string } | { category: string; channel: string; lane?: string }) {
    const form = page.getByRole("form", { name: "Explain a send" });
    if ("type" in options) {
      await form.getByLabel("Ask about").selectOption("type");
      await form.getByLabel("Notification type").selectOption(options.type);
    } else {
      await form.getByLabel("Ask about").selectOption("category");
      await form.getByLabel("Category").selectOption(options.category);
      await form.getByLabel("Channel").selectOption(options.channel);
      await form.getByLabel("Lane").selectOption(options.lane ?? "bulk");
    }
    await form.getByRole("button", { name: "Explain" }).click();
    const answer = page.getByLabel("Explanation", { exact: true });
    await answer.waitFor(EVENTUALLY);
    return answer;
  }

  it("finds a user by the start of their email and reads their page and timeline", async () => {
    await openUser("ada.lo", "ada");
    const search = page.getByRole("list", { name: "Matching users" });
    expect(await search.count()).toBe(0);
    await expect.poll(() => page.getByRole("region", { name: "Profile" }).textContent(), EVENTUALLY).toContain("Ada.Lovelace@example.com");
    const devices = page.getByRole("region", { name: "Devices" });
    expect(await devices.getByRole("row").filter({ hasText: "ada-old-tablet" }).textContent()).toContain("unregistered");
    const matrix = page.getByRole("region", { name: "Preferences" });
    const marketing = matrix.getByRole("row").filter({ hasText: "Marketing" });
    expect(await marketing.textContent()).toContain("unsubscribe link");
    expect(await marketing.textContent()).toContain("default");

    const timeline = page.getByRole("region", { name: "Notifications to ada" });
    const emailRow = timeline.getByRole("row").filter({ hasText: "promo.weekly" }).filter({ hasText: "Email" });
    await expect.poll(() => emailRow.textContent(), EVENTUALLY).toContain("Skipped");
    expect(await emailRow.textContent()).toContain("category_disabled");
    const smsRow = timeline.getByRole("row").filter({ hasText: "promo.weekly" }).filter({ hasText: "SMS" });
    await expect.poll(() => smsRow.textContent(), EVENTUALLY).toMatch(/Sent|Delivered/);
    // A provider webhook about this message, as it arrived (the sandbox calls no webhook URL itself).
    await database.pool.query(
      `INSERT INTO herald.webhook_events (provider, event_key, kind, provider_message_id, raw)
       SELECT 'twilio', 'browser-test', 'delivered', provider_message_id, 'MessageSid=' || provider_message_id || '&MessageStatus=delivered'
         FROM herald.notifications WHERE dedup_key LIKE 'promo-1:%:sms'`,
    );
    await timeline.getByRole("button", { name: "Refresh" }).click();
    await smsRow.getByRole("button", { name: /Details of promo\.weekly by SMS/ }).click();
    const details = timeline.getByRole("row").filter({ hasText: "Rendered content" });
    await expect.poll(() => details.textContent(), EVENTUALLY).toContain("+4915112345678");
    expect(await details.textContent()).toContain("attempt");
    await expect.poll(() => details.getByLabel("Raw body of the delivered webhook").textContent(), EVENTUALLY).toContain("MessageStatus=delivered");
    await shot("support-01-user-page-and-timeline");

    // Filter the timeline: only the security login's email is left.
    await timeline.getByLabel("Type").selectOption("security.login");
    await expect.poll(() => timeline.getByRole("row").filter({ hasText: "security.login" }).count(), EVENTUALLY).toBe(1);
    expect(await timeline.getByRole("row").filter({ hasText: "promo.weekly" }).count()).toBe(0);
    await shot("support-02-timeline-filtered");
    await timeline.getByRole("button", { name: "Clear filters" }).click();
  });

  it("loads the next page of the timeline as its end scrolls into view", async () => {
    await ingestEvents(
      database.pool,
      Array.from({ length: 12 }, (_, i) => ({ eventId: `dan-${i}`, type: "promo.weekly", userId: "dan", data: {} })),
    );
    await openUser("da", "dan");
    const timeline = page.getByRole("region", { name: "Notifications to dan" });
    const rows = timeline.getByRole("row").filter({ hasText: "promo.weekly" });
    await expect.poll(() => rows.count(), EVENTUALLY).toBe(25);
    await timeline.getByText(/Load more|notifications: the whole history/).scrollIntoViewIfNeeded();
    await expect.poll(() => rows.count(), EVENTUALLY).toBe(36);
    expect(await timeline.textContent()).toContain("36 notifications: the whole history.");
  });

  it("Explains each gate's verdict in words", async () => {
    await openUser("ada", "ada");
    const optedOut = await explain({ type: "promo.weekly" });
    await expect.poll(() => optedOut.textContent(), EVENTUALLY).toMatch(/Email: skipped — opted out of marketing email on \d{4}-\d{2}-\d{2} through the unsubscribe link/);
    expect(await optedOut.textContent()).toContain("SMS: would send to +4915112345678 through the sandbox");
    expect(await optedOut.textContent()).toContain("Push: would send to their device through the sandbox");
    await shot("support-03-explain-opted-out-and-would-send");

    const mandatory = await explain({ type: "security.login" });
    await expect.poll(() => mandatory.textContent(), EVENTUALLY).toMatch(/security is mandatory: their opt-out of security email on .* does not apply/);
    await shot("support-04-explain-mandatory");

    await database.pool.query(
      `INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, content, status, dispatch_state, sent_at)
       SELECT 'capped-1', id, 'digest.daily', 'email', 'digest', '{"subject": "s", "body": "b"}', 'sent', 'done', now() - interval '1 hour'
         FROM herald.users WHERE external_id = 'ada'`,
    );
    const capped = await explain({ category: "digest", channel: "email" });
    await expect.poll(() => capped.textContent(), EVENTUALLY).toContain("Email: skipped — the digest frequency cap is reached (1 sent in its window)");
    await shot("support-05-explain-frequency-cap");

    await openUser("bo", "bob");
    const suppressed = await explain({ type: "promo.weekly" });
    await expect.poll(() => suppressed.textContent(), EVENTUALLY).toMatch(/Email: skipped — bob@example\.com is suppressed after a hard bounce on .* \(ses\)/);
    expect(await suppressed.textContent()).toMatch(/SMS: skipped — \+4917000000001 is suppressed after a STOP reply/);
    expect(await suppressed.textContent()).toContain("Push: skipped — no active device");
    await shot("support-06-explain-suppressed-and-no-device");

    await openUser("cle", "cleo");
    const quiet = await explain({ type: "promo.weekly" });
    await expect.poll(() => quiet.textContent(), EVENTUALLY).toMatch(/Email: deferred to (\d{4}-\d{2}-\d{2} )?\d{2}:00 UTC — quiet hours/);
    expect(await quiet.textContent()).toContain("SMS: skipped — no phone number");
    await shot("support-07-explain-quiet-hours");
  });

  it("edits a preference as support and finds the change in the audit log", async () => {
    await openUser("ada", "ada");
    const matrix = page.getByRole("region", { name: "Preferences" });
    await matrix.getByLabel("Marketing by Email").selectOption("on");
    const cell = matrix.getByRole("row").filter({ hasText: "Marketing" });
    await expect.poll(() => cell.textContent(), EVENTUALLY).toContain("support ·");
    await shot("support-08-preference-edited");
    // Explain agrees at once: marketing email would now be sent.
    const answer = await explain({ type: "promo.weekly" });
    await expect.poll(() => answer.textContent(), EVENTUALLY).toContain("Email: would send to Ada.Lovelace@example.com through the sandbox");

    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("link", { name: "Audit log" }).click();
    const entry = page.getByRole("row").filter({ hasText: "users.set_preference" });
    await expect.poll(() => entry.textContent(), EVENTUALLY).toContain("user:ada");
    await shot("support-09-audit-log");
  });

  it("lifts a suppression, giving a reason", async () => {
    await openUser("bob", "bob");
    const suppressions = page.getByRole("region", { name: "Suppressions" });
    const stop = suppressions.getByRole("row").filter({ hasText: "+4917000000001" });
    await stop.getByRole("button", { name: "Lift…" }).click();
    const dialog = page.getByRole("dialog", { name: "Lift this suppression?" });
    await dialog.getByRole("button", { name: "Lift suppression" }).click();
    expect(await dialog.textContent()).toContain("Say why you lift it");
    await dialog.getByLabel("Reason").fill("Texted START to support on the phone");
    await shot("support-10-lift-suppression-dialog");
    await dialog.getByRole("button", { name: "Lift suppression" }).click();
    await expect.poll(() => stop.count(), EVENTUALLY).toBe(0);
    expect(await suppressions.getByRole("row").filter({ hasText: "bob@example.com" }).count()).toBe(1);
    await shot("support-11-suppression-lifted");
    const { rows } = await database.pool.query("SELECT detail FROM herald.audit_log WHERE action = 'users.lift_suppression'");
    expect(rows).toEqual([{ detail: expect.objectContaining({ address: "+4917000000001", reason: "Texted START to support on the phone" }) }]);
  });

  it("resends a notification, saying first what the gates would do", async () => {
    await openUser("ada", "ada");
    const timeline = page.getByRole("region", { name: "Notifications to ada" });
    const smsRow = timeline.getByRole("row").filter({ hasText: "promo.weekly" }).filter({ hasText: "SMS" });
    await smsRow.getByRole("button", { name: /Details of promo\.weekly by SMS/ }).click();
    await timeline.getByRole("button", { name: "Resend…" }).click();
    const dialog = page.getByRole("dialog", { name: /^Resend notification \d+\?$/ });
    await expect.poll(() => dialog.textContent(), EVENTUALLY).toContain("If sent now — SMS: would send to +4915112345678 through the sandbox");
    await shot("support-12-resend-dialog");
    await dialog.getByRole("button", { name: "Resend" }).click();
    await expect.poll(() => timeline.getByRole("row").filter({ hasText: "promo.weekly" }).filter({ hasText: "SMS" }).count(), EVENTUALLY).toBe(2);
    const { rows } = await database.pool.query("SELECT resent_from_id IS NOT NULL AS linked FROM herald.notifications WHERE dedup_key LIKE 'resend:%'");
    expect(rows).toEqual([{ linked: true }]);
    await shot("support-13-resent");
  });
});
