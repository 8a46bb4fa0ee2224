import fs from "node:fs";
import { openDatabase, setPreferences, upsertUser, type Database } from "@herald/db";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { ADMIN, fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

// Generous: on a busy machine password hashing and the first queries take seconds.
const EVENTUALLY = { timeout: 30_000 };
const SUPPORT = { name: "Sam Support", email: "sam@example.com", password: "sam's own long passphrase" };

// One admin walks the Settings area in order, and the audit log shows what they did.
describe("Settings: categories, notification types, providers, rate limits, API keys, members, audit log", () => {
  const herald = useHeraldServer({ env: { HERALD_SECRET_KEY: "a-browser-test-secret-key-long-enough-42" } });
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
  });

  afterAll(async () => {
    await browser?.close();
    await database?.close();
  });

  async function mutate(procedure: string, input: unknown): Promise<void> {
    const answer = await page.evaluate(
      async ({ procedure, input }) => {
        const response = await fetch(`/trpc/${procedure}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
        return { status: response.status, body: await response.text() };
      },
      { procedure, input },
    );
    if (answer.status !== 200) throw new Error(`${procedure} answered ${answer.status}: ${answer.body}`);
  }

  async function postEvent(key: string, eventId: string) {
    const response = await fetch(`${herald.url}/api/v1/events`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ eventId, type: "order.paid", userId: "u-1", data: { order_id: "A-7" } }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const text = (selector = "main") => page.locator(selector).innerText();

  it("creates a category with its per-channel defaults and an alias", async () => {
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("link", { name: "Categories" }).click();
    await expect.poll(() => text(), EVENTUALLY).toContain("No categories yet");
    await screenshot(page, "60-categories-empty");

    await page.getByRole("link", { name: "New category" }).first().click();
    await page.waitForURL(/\/settings\/categories\/new$/);
    await page.getByLabel("Key").fill("Orders!");
    await page.getByLabel("Label").fill("Orders");
    await page.getByRole("button", { name: "Create category" }).click();
    // The server's refusal lands beside the field it names.
    await expect.poll(() => text("form"), EVENTUALLY).toContain('"Orders!" is not a category key');
    await page.getByLabel("Key").fill("orders");
    await page.getByLabel("SMS").uncheck();
    await page.getByLabel("Aliases").fill("order");
    await page.getByLabel("Link clicks").check();
    await screenshot(page, "61-category-form");
    await page.getByRole("button", { name: "Create category" }).click();
    await page.waitForURL(/\/settings\/categories$/);
    const row = page.getByRole("row", { name: /Orders/ });
    await expect.poll(() => row.innerText(), EVENTUALLY).toContain("order");
    expect(await row.innerText()).toMatch(/Email\s+Push/);
    expect(await row.innerText()).not.toContain("SMS");
    await screenshot(page, "62-categories");
  });

  it("creates a notification type on a published template, refusing bad steps inline, and an event is routed by it", async () => {
    await mutate("templates.create", { key: "order.paid", name: "Order paid", channels: ["email"], defaultCategory: null, defaultLocale: "en" });
    await mutate("templates.saveDraft", {
      key: "order.paid",
      body: { variables: [{ name: "data.order_id", type: "string", required: true, example: "A-1" }], content: { en: { email: { subject: "Order {{ data.order_id }} is paid", html: "<p>Thanks!</p>" } } } },
    });
    await mutate("templates.publish", { key: "order.paid" });

    await page.getByRole("link", { name: "Notification types" }).click();
    await expect.poll(() => text(), EVENTUALLY).toContain("No notification types yet");
    await page.getByRole("link", { name: "New notification type" }).first().click();
    await page.waitForURL(/\/settings\/notification-types\/new$/);
    await page.getByLabel("Event type").fill("order.paid");
    const email = page.getByRole("group", { name: "Step 1: Email" });
    await email.getByLabel("Category").selectOption("orders");
    await page.getByRole("button", { name: "Create notification type" }).click();
    await expect.poll(() => email.innerText(), EVENTUALLY).toContain("Choose a published template, or switch to inline content.");
    await email.getByLabel("Template", { exact: true }).selectOption("order.paid");

    // A push step with a placeholder the renderer refuses: the server names the field.
    await page.getByRole("button", { name: "Add SMS step" }).click();
    const second = page.getByRole("group", { name: "Step 2: SMS" });
    await second.getByLabel("Channel").selectOption("push");
    const push = page.getByRole("group", { name: "Step 2: Push" });
    await push.getByLabel("Inline content").check();
    await push.getByLabel("Title").fill("Paid");
    await push.getByLabel("Body").fill("Order {{ secrets.key }}");
    await push.getByLabel("Lane").selectOption("critical");
    await page.getByRole("button", { name: "Create notification type" }).click();
    await expect.poll(() => push.innerText(), EVENTUALLY).toContain('"{{ secrets.key }}" is not a placeholder');
    await screenshot(page, "63-notification-type-refused");
    await push.getByLabel("Body").fill("Order {{ data.order_id }} is paid");
    await page.getByRole("button", { name: "Create notification type" }).click();
    await page.waitForURL(/\/settings\/notification-types$/);
    const row = page.getByRole("row", { name: /order\.paid/ });
    await expect.poll(() => row.innerText(), EVENTUALLY).toContain("template order.paid");
    expect(await row.innerText()).toContain("Critical");
    await screenshot(page, "64-notification-types");
  });

  it("edits a provider's secondary and its rate limit, and a breaker threshold", async () => {
    await page.getByRole("link", { name: "Providers" }).click();
    const emailCard = page.getByRole("region", { name: "Email", exact: true });
    await emailCard.getByRole("button", { name: "Configure the secondary Email provider" }).click();
    const form = emailCard.getByRole("form", { name: "Configure the secondary Email provider" });
    await form.getByLabel("Provider", { exact: true }).selectOption("webhook");
    // A loopback receiver must be allowed by name: every other host must be public and resolve.
    await form.getByLabel("URL").fill("http://127.0.0.1:9/herald");
    await form.getByLabel("Allowed hosts").fill("127.0.0.1");
    await form.getByLabel("Sends per second").fill("7");
    await form.getByLabel("Signing secret").fill("a-signing-secret-of-at-least-32-characters");
    await form.getByRole("button", { name: "Save the secondary Email provider" }).click();
    await expect.poll(() => form.count(), EVENTUALLY).toBe(0);
    expect(await emailCard.innerText()).toContain("Webhook");
    await screenshot(page, "65-providers-secondary");

    await page.getByRole("link", { name: "Rate limits and breakers" }).click();
    const secondary = page.getByRole("row", { name: /Secondary/ });
    await expect.poll(() => secondary.innerText(), EVENTUALLY).toMatch(/Webhook[\s\S]*\b7\b/);
    const threshold = page.getByLabel("Breaker failure threshold");
    await threshold.fill("9");
    await page.locator("form", { has: threshold }).getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.locator("form", { has: threshold }).innerText(), EVENTUALLY).toContain("Saved");
    await screenshot(page, "66-rate-limits");
    const { rows } = await database.pool.query("SELECT settings->>'ratePerSecond' AS rate FROM herald.provider_configs WHERE channel = 'email' AND role = 'secondary'");
    expect(rows).toEqual([{ rate: "7" }]);
  });

  it("creates an API key, posts an event with it, and revokes it", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByLabel("Name").fill("Checkout service");
    await page.getByLabel("Scope").selectOption("admin");
    await page.getByRole("button", { name: "Create API key" }).click();
    const secret = page.getByRole("textbox", { name: "API key" });
    await secret.waitFor(EVENTUALLY);
    const key = await secret.inputValue();
    expect(key).toMatch(/^hk_/);
    await screenshot(page, "67-api-key-created");

    const posted = await postEvent(key, "order-7-paid");
    expect(posted.status).toBe(202);
    const { rows } = await database.pool.query(
      "SELECT channel, category, lane, template_key, template_version FROM herald.notifications WHERE type = 'order.paid' ORDER BY channel",
    );
    expect(rows).toEqual([
      { channel: "email", category: "orders", lane: "bulk", template_key: "order.paid", template_version: 1 },
      { channel: "push", category: "orders", lane: "critical", template_key: null, template_version: null },
    ]);

    const keyRow = page.getByRole("row", { name: /Checkout service/ });
    await keyRow.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("button", { name: "Revoke key" }).click();
    await expect.poll(() => keyRow.innerText(), EVENTUALLY).toMatch(/Revoked/i);
    expect((await postEvent(key, "order-8-paid")).status).toBe(401);
    await screenshot(page, "68-api-key-revoked");
  });

  it("invites a member who signs up, and changes their role", async () => {
    await page.getByRole("link", { name: "Members" }).click();
    await page.getByLabel("Email").fill(SUPPORT.email);
    await page.getByLabel("Role").selectOption("viewer");
    await page.getByRole("button", { name: "Invite member" }).click();
    const link = page.getByRole("textbox", { name: "Invite link" });
    await link.waitFor(EVENTUALLY);
    const invitee = await browser.newPage();
    await invitee.goto(await link.inputValue());
    await invitee.getByLabel("Name").fill(SUPPORT.name);
    await invitee.getByLabel("Password", { exact: true }).fill(SUPPORT.password);
    await invitee.getByRole("button", { name: "Accept invite" }).click();
    await invitee.waitForURL(/\/broadcasts$/);
    await invitee.close();

    await page.reload();
    const access = page.getByLabel(`Access level for ${SUPPORT.name}`);
    await access.waitFor(EVENTUALLY);
    await access.selectOption("support");
    await expect.poll(async () => (await database.pool.query("SELECT role FROM herald.members WHERE email = $1", [SUPPORT.email])).rows[0]?.role, EVENTUALLY).toBe("support");
    await screenshot(page, "69-members");
  });

  it("filters the audit log by member and action, and shows the earlier steps", async () => {
    await page.getByRole("link", { name: "Audit log" }).click();
    const table = page.locator("main table");
    await expect.poll(() => table.innerText(), EVENTUALLY).toContain("categories.create");
    await page.getByLabel("Member").selectOption({ label: `${ADMIN.name} (${ADMIN.email})` });
    await page.getByLabel("Action").selectOption("categories.create");
    await expect.poll(async () => (await table.locator("tbody tr").allInnerTexts()).length, EVENTUALLY).toBe(1);
    expect(await table.innerText()).toContain("orders");
    await screenshot(page, "70-audit-categories");

    await page.getByLabel("Action").selectOption("notification_types.create");
    await expect.poll(() => table.innerText(), EVENTUALLY).toContain("order.paid");
    for (const action of ["providers.save", "settings.update", "api_keys.create", "api_keys.revoke", "members.invite", "members.set_role"]) {
      await page.getByLabel("Action").selectOption(action);
      await expect.poll(() => table.innerText(), EVENTUALLY).toContain(action);
    }
    // Today only: everything above; a range that ended yesterday: nothing.
    const today = await page.evaluate(() => new Date().toLocaleDateString("sv"));
    await page.getByLabel("From").fill(today);
    await expect.poll(() => table.innerText(), EVENTUALLY).toContain("members.set_role");
    await page.getByLabel("Action").selectOption("");
    await page.getByLabel("To").fill("2026-01-01");
    await page.getByLabel("From").fill("2026-01-01");
    await expect.poll(() => text(), EVENTUALLY).toContain("No matching entries");
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(() => table.innerText(), EVENTUALLY).toContain("categories.create");
    await screenshot(page, "71-audit-all");
  });

  it("makes a category mandatory, and a user who opted out of it is sent it all the same", async () => {
    // uma switched off orders email through the API before orders became mandatory.
    await upsertUser(database.pool, "uma", { email: "uma@example.com" });
    await setPreferences(database.pool, "uma", [{ category: "orders", channel: "email", enabled: false }], "api");
    const { rows: optOut } = await database.pool.query<{ day: string }>(
      `SELECT to_char(p.changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM herald.preferences p JOIN herald.users u ON u.id = p.user_id
        WHERE u.external_id = 'uma' AND p.category = 'orders' AND p.channel = 'email' AND NOT p.enabled`,
    );
    expect(optOut).toHaveLength(1);
    async function explainOrdersEmailToUma() {
      await page.getByRole("link", { name: "Users" }).click();
      await page.getByLabel("User id, email or phone").fill("uma");
      await page.getByRole("list", { name: "Matching users" }).getByRole("button").filter({ hasText: "uma" }).click();
      await page.waitForURL(/\/users\?user=uma$/);
      const form = page.getByRole("form", { name: "Explain a send" });
      await form.getByLabel("Ask about").selectOption("category");
      await form.getByLabel("Category").selectOption("orders");
      await form.getByLabel("Channel").selectOption("email");
      await form.getByRole("button", { name: "Explain" }).click();
      return page.getByLabel("Email explanation");
    }
    const before = await explainOrdersEmailToUma();
    await expect.poll(() => before.textContent(), EVENTUALLY).toContain(`Email: skipped — opted out of orders email on ${optOut[0]!.day} through the API`);

    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("link", { name: "Categories" }).click();
    await page.getByRole("row", { name: /Orders/ }).getByRole("link", { name: "Orders" }).click();
    await page.waitForURL(/\/settings\/categories\/orders$/);
    const mandatory = page.getByLabel(/^Mandatory/);
    expect(await mandatory.isChecked()).toBe(false);
    await mandatory.check();
    await screenshot(page, "72-category-mandatory");
    await page.getByRole("button", { name: "Save category" }).click();
    await page.waitForURL(/\/settings\/categories$/);
    await expect.poll(() => page.getByRole("row", { name: /Orders/ }).innerText(), EVENTUALLY).toContain("Mandatory");
    const { rows } = await database.pool.query("SELECT mandatory FROM herald.categories WHERE key = 'orders'");
    expect(rows).toEqual([{ mandatory: true }]);
    await screenshot(page, "73-categories-mandatory");

    // The gates now pass orders email to uma, her opt-out on file but overruled, and her page says so.
    const after = await explainOrdersEmailToUma();
    await expect.poll(() => after.textContent(), EVENTUALLY).toContain(`orders is mandatory: their opt-out of orders email on ${optOut[0]!.day} through the API does not apply`);
    expect(await after.textContent()).toMatch(/Email: would send to uma@example\.com through /);
    const orders = page.getByRole("region", { name: "Preferences" }).getByRole("row").filter({ hasText: "Orders" });
    await expect.poll(() => orders.textContent(), EVENTUALLY).toContain("always sent (mandatory)");
    await screenshot(page, "74-mandatory-category-explained");
  });
});
