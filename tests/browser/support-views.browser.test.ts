import fs from "node:fs";
import { ingestEvents, openDatabase, upsertCategory, upsertUser, type Database } from "@herald/db";
import { seedSupportWorkspace } from "@herald/db/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

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
    // Beside the workspace's capped digest (which skips): a category whose cap defers instead.
    await upsertCategory(database.pool, "reminders", { label: "Reminders", frequencyCap: { max: 1, windowSeconds: 6 * 3600, action: "defer" } });
    await ingestEvents(database.pool, [
      { eventId: "promo-1", type: "promo.weekly", userId: "ada", data: {} },
      { eventId: "login-1", type: "security.login", userId: "ada", data: {} },
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await database?.close();
  });

  async function openUser(query: string, externalId: string) {
    await page.getByRole("link", { name: "Users" }).click();
    // The search box is remounted empty once the open user is gone: text typed before that is lost.
    const box = page.getByLabel("User id, email or phone");
    await expect.poll(() => box.inputValue(), EVENTUALLY).toBe("");
    await box.fill(query);
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
    await expect.poll(() => search.count(), EVENTUALLY).toBe(0);
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
    await screenshot(page, "support-01-user-page-and-timeline");

    // Filter the timeline: only the security login's email is left.
    await timeline.getByLabel("Type").selectOption("security.login");
    await expect.poll(() => timeline.getByRole("row").filter({ hasText: "security.login" }).count(), EVENTUALLY).toBe(1);
    expect(await timeline.getByRole("row").filter({ hasText: "promo.weekly" }).count()).toBe(0);
    await screenshot(page, "support-02-timeline-filtered");
    await timeline.getByRole("button", { name: "Clear filters" }).click();
  });

  it("expands a notification to its attempt, with the provider's code and latency, and the content as it was sent", async () => {
    // eve's number is the sandbox's Twilio "invalid number": her SMS attempt is refused with a
    // provider code, while her email is accepted.
    await upsertUser(database.pool, "eve", { email: "eve@example.com", phone: "+15005550001" });
    await ingestEvents(database.pool, [{ eventId: "eve-promo", type: "promo.weekly", userId: "eve", data: {} }]);
    const attempts = () =>
      database.pool.query<{ channel: string; address: string; rendered: Record<string, unknown>; attempt: { provider: string; providerCode?: string; latencyMs: number } }>(
        `SELECT n.channel, n.address, n.rendered, e.detail AS attempt
           FROM herald.notifications n JOIN herald.notification_events e ON e.notification_id = n.id AND e.type = 'attempt'
          WHERE n.dedup_key LIKE 'eve-promo:%' ORDER BY n.channel`,
      );
    await expect.poll(async () => (await attempts()).rows.map((r) => r.channel), EVENTUALLY).toEqual(["email", "sms"]);
    const { rows } = await attempts();
    expect(rows.find((r) => r.channel === "sms")!.attempt.providerCode).toBe("21211");

    await openUser("eve", "eve");
    const timeline = page.getByRole("region", { name: "Notifications to eve" });
    const labels: Record<string, string> = { email: "Email", sms: "SMS" };
    const fieldLabels: Record<string, string> = { subject: "Subject", title: "Title", body: "Body", html: "HTML" };
    for (const truth of rows) {
      const row = timeline.getByRole("row").filter({ hasText: "promo.weekly" }).filter({ hasText: labels[truth.channel]! });
      await expect.poll(() => row.textContent(), EVENTUALLY).toMatch(truth.channel === "sms" ? /Dead|Failed/ : /Sent|Delivered/);
      await row.getByRole("button", { name: `Details of promo.weekly by ${labels[truth.channel]}` }).click();
      // The details open in the row right below the notification's own.
      const details = row.locator("xpath=following-sibling::tr[1]");
      const attempt = details.getByRole("row").filter({ has: page.locator("td code", { hasText: /^attempt$/ }) });
      await expect.poll(() => attempt.textContent(), EVENTUALLY).toMatch(new RegExp(`"latencyMs": ${truth.attempt.latencyMs}\\b`));
      expect(await attempt.textContent()).toContain(`"provider": "${truth.attempt.provider}"`);
      if (truth.attempt.providerCode) expect(await attempt.textContent()).toContain(`"providerCode": "${truth.attempt.providerCode}"`);
      else expect(await attempt.textContent()).not.toContain("providerCode");
      expect(await details.textContent()).toContain(truth.address);
      // Each field of the content as the provider was handed it, under its own label.
      const shown = Object.keys(truth.rendered).filter((key) => key in fieldLabels);
      expect(shown).toContain("body");
      for (const key of shown) {
        const field = details.locator(".rendered-field").filter({ has: page.locator(".rendered-label", { hasText: new RegExp(`^${fieldLabels[key]}$`) }) });
        expect(await field.locator(key === "body" || key === "html" ? "pre" : "p:not(.rendered-label)").textContent()).toBe(truth.rendered[key]);
      }
    }
    await screenshot(page, "support-01b-timeline-attempts-and-content");
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
    // The reminders cap, reached by one email an hour ago.
    await database.pool.query(
      `INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, content, status, dispatch_state, sent_at)
       SELECT 'reminded-1', id, 'reminder.due', 'email', 'reminders', '{"subject": "s", "body": "b"}', 'sent', 'done', now() - interval '1 hour'
         FROM herald.users WHERE external_id = 'ada'`,
    );
    await openUser("ada", "ada");
    const optedOut = await explain({ type: "promo.weekly" });
    await expect.poll(() => optedOut.textContent(), EVENTUALLY).toMatch(/Email: skipped — opted out of marketing email on \d{4}-\d{2}-\d{2} through the unsubscribe link/);
    expect(await optedOut.textContent()).toContain("SMS: would send to +4915112345678 through the sandbox");
    expect(await optedOut.textContent()).toContain("Push: would send to their device through the sandbox");
    await screenshot(page, "support-03-explain-opted-out-and-would-send");

    const mandatory = await explain({ type: "security.login" });
    await expect.poll(() => mandatory.textContent(), EVENTUALLY).toMatch(/security is mandatory: their opt-out of security email on .* does not apply/);
    await screenshot(page, "support-04-explain-mandatory");

    await database.pool.query(
      `INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, content, status, dispatch_state, sent_at)
       SELECT 'capped-1', id, 'digest.daily', 'email', 'digest', '{"subject": "s", "body": "b"}', 'sent', 'done', now() - interval '1 hour'
         FROM herald.users WHERE external_id = 'ada'`,
    );
    const capped = await explain({ category: "digest", channel: "email" });
    await expect.poll(() => capped.textContent(), EVENTUALLY).toContain("Email: skipped — the digest frequency cap is reached (1 sent in its window)");
    await screenshot(page, "support-05-explain-frequency-cap");

    // When the oldest send in the window leaves it, in ada's own time zone ("2026-12-02 09:14 Europe/Berlin", the date only when not today).
    const { rows: windows } = await database.pool.query<{ until: string }>(
      `SELECT CASE WHEN (w.until AT TIME ZONE u.timezone)::date = (now() AT TIME ZONE u.timezone)::date THEN ''
                   ELSE to_char(w.until AT TIME ZONE u.timezone, 'YYYY-MM-DD ') END
              || to_char(w.until AT TIME ZONE u.timezone, 'HH24:MI') || ' ' || u.timezone AS until
         FROM herald.users u,
              LATERAL (SELECT min(n.sent_at) + make_interval(secs => (c.frequency_cap->>'windowSeconds')::int) AS until
                         FROM herald.notifications n JOIN herald.categories c ON c.key = n.category
                        WHERE n.user_id = u.id AND n.category = 'reminders' GROUP BY c.frequency_cap) AS w
        WHERE u.external_id = 'ada'`,
    );
    expect(windows).toHaveLength(1);
    const deferred = await explain({ category: "reminders", channel: "email" });
    await expect
      .poll(() => deferred.textContent(), EVENTUALLY)
      .toContain(`Email: deferred — the reminders frequency cap is reached (1 sent in its window): deferred to ${windows[0]!.until}`);
    await screenshot(page, "support-05b-explain-frequency-cap-defers");

    // News email is off unless a user opts in, and ada never did.
    const { rows: news } = await database.pool.query(
      `SELECT c.defaults->'email' AS email, (SELECT count(*)::int FROM herald.preferences p JOIN herald.users u ON u.id = p.user_id
                                             WHERE u.external_id = 'ada' AND p.category = 'news') AS choices
         FROM herald.categories c WHERE c.key = 'news'`,
    );
    expect(news).toEqual([{ email: false, choices: 0 }]);
    const offByDefault = await explain({ category: "news", channel: "email" });
    await expect.poll(() => offByDefault.textContent(), EVENTUALLY).toContain("Email: skipped — news email is off by default and they never opted in");
    await screenshot(page, "support-05c-explain-off-by-default");

    await openUser("bo", "bob");
    const suppressed = await explain({ type: "promo.weekly" });
    await expect.poll(() => suppressed.textContent(), EVENTUALLY).toMatch(/Email: skipped — bob@example\.com is suppressed after a hard bounce on .* \(ses\)/);
    expect(await suppressed.textContent()).toMatch(/SMS: skipped — \+4917000000001 is suppressed after a STOP reply/);
    expect(await suppressed.textContent()).toContain("Push: skipped — no active device");
    await screenshot(page, "support-06-explain-suppressed-and-no-device");

    await openUser("cle", "cleo");
    const quiet = await explain({ type: "promo.weekly" });
    await expect.poll(() => quiet.textContent(), EVENTUALLY).toMatch(/Email: deferred to (\d{4}-\d{2}-\d{2} )?\d{2}:00 UTC — quiet hours/);
    expect(await quiet.textContent()).toContain("SMS: skipped — no phone number");
    await screenshot(page, "support-07-explain-quiet-hours");
  });

  it("edits a preference as support and finds the change in the audit log", async () => {
    await openUser("ada", "ada");
    const matrix = page.getByRole("region", { name: "Preferences" });
    await matrix.getByLabel("Marketing by Email").selectOption("on");
    const cell = matrix.getByRole("row").filter({ hasText: "Marketing" });
    await expect.poll(() => cell.textContent(), EVENTUALLY).toContain("support ·");
    await screenshot(page, "support-08-preference-edited");
    // Explain agrees at once: marketing email would now be sent.
    const answer = await explain({ type: "promo.weekly" });
    await expect.poll(() => answer.textContent(), EVENTUALLY).toContain("Email: would send to Ada.Lovelace@example.com through the sandbox");

    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("link", { name: "Audit log" }).click();
    const entry = page.getByRole("row").filter({ hasText: "users.set_preference" });
    await expect.poll(() => entry.textContent(), EVENTUALLY).toContain("user:ada");
    await screenshot(page, "support-09-audit-log");
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
    await screenshot(page, "support-10-lift-suppression-dialog");
    await dialog.getByRole("button", { name: "Lift suppression" }).click();
    await expect.poll(() => stop.count(), EVENTUALLY).toBe(0);
    expect(await suppressions.getByRole("row").filter({ hasText: "bob@example.com" }).count()).toBe(1);
    await screenshot(page, "support-11-suppression-lifted");
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
    await screenshot(page, "support-12-resend-dialog");
    await dialog.getByRole("button", { name: "Resend" }).click();
    await expect.poll(() => timeline.getByRole("row").filter({ hasText: "promo.weekly" }).filter({ hasText: "SMS" }).count(), EVENTUALLY).toBe(2);
    const { rows } = await database.pool.query("SELECT resent_from_id IS NOT NULL AS linked FROM herald.notifications WHERE dedup_key LIKE 'resend:%'");
    expect(rows).toEqual([{ linked: true }]);
    await screenshot(page, "support-13-resent");
  });
});
