import fs from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

// Sandbox identities (docs: the Test identities card): an email that bounces, a number Twilio rejects.
const BOUNCING_EMAIL = "bounce@simulator.amazonses.com";
const INVALID_NUMBER = "+15005550001";
// Generous: on a busy machine password hashing and the worker's first pass take seconds.
const EVENTUALLY = { timeout: 30_000 };

describe("an event's notifications, followed from the API to Users and Delivery", () => {
  const herald = useHeraldServer();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A REST call with the key the dashboard created, failing the test with the server's answer. */
  async function api(key: string, method: "PUT" | "POST", route: string, body: unknown) {
    const response = await fetch(`${herald.url}/api/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${await response.text()}`);
    return response.json() as Promise<unknown>;
  }

  it("creates an API key, sends an event with it, and follows the SMS to the dead letters and the email to a bounce", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await fillFirstAdminForm(page, herald.url);
    await page.getByRole("button", { name: "Create admin" }).click();
    await page.waitForURL(/\/broadcasts$/);

    // Settings → API keys: the key is shown once, in the "API key" textbox.
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("link", { name: "API keys" }).click();
    await page.waitForURL(/\/settings\/api-keys$/);
    await page.getByLabel("Name").fill("Test backend");
    await page.getByLabel("Scope").selectOption("admin");
    await page.getByLabel("Requests per minute").fill("600");
    await page.getByRole("button", { name: "Create API key" }).click();
    const keyBox = page.getByRole("textbox", { name: "API key" });
    await keyBox.waitFor();
    const key = await keyBox.inputValue();
    expect(key).toMatch(/^hk_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{32,}$/);
    const keyRow = page.getByRole("row").filter({ hasText: "Test backend" });
    await expect.poll(() => keyRow.textContent(), EVENTUALLY).toContain(`${key.slice(0, 11)}…`);
    await screenshot(page, "10-api-key-created");

    await api(key, "PUT", "/categories/orders", { label: "Orders" });
    await api(key, "PUT", "/notification-types/order.paid", {
      channels: [
        { channel: "email", category: "orders", content: { subject: "Order paid", body: "Thanks" } },
        { channel: "sms", category: "orders", content: { body: "Paid" } },
      ],
    });
    await api(key, "PUT", "/users/u-1", { email: BOUNCING_EMAIL, phone: INVALID_NUMBER });
    await api(key, "POST", "/events", { eventId: "e-1", type: "order.paid", userId: "u-1" });

    // Users: the history refreshes itself while a notification is pending or awaiting its callback.
    await page.getByRole("link", { name: "Users" }).click();
    await page.getByLabel("User id").fill("u-1");
    await page.getByRole("button", { name: "Show history" }).click();
    await page.waitForURL(/\/users\?user=u-1$/);
    const smsRow = page.getByRole("row").filter({ hasText: "order.paid" }).filter({ hasText: "SMS" });
    const emailRow = page.getByRole("row").filter({ hasText: "order.paid" }).filter({ hasText: "Email" });
    await expect.poll(() => smsRow.textContent(), EVENTUALLY).toContain("Dead");
    expect(await smsRow.textContent()).toContain("provider_rejected:21211");
    expect(await smsRow.textContent()).toContain("The provider rejected it (code 21211)");
    await expect.poll(() => emailRow.textContent(), EVENTUALLY).toContain("Bounced");
    await emailRow.getByRole("button", { name: /Details of order\.paid by Email/ }).click();
    const emailDetails = page.getByRole("row").filter({ hasText: "Rendered content" });
    await expect.poll(() => emailDetails.textContent(), EVENTUALLY).toContain(BOUNCING_EMAIL);
    expect(await emailDetails.textContent()).toContain("Order paid");
    // The event log, oldest first: the provider accepted the email before it bounced.
    const logged = await emailDetails.getByRole("row").evaluateAll((rows) => rows.map((row) => row.children[1]?.textContent ?? ""));
    expect(logged.indexOf("sent")).toBeGreaterThan(0);
    expect(logged.indexOf("bounced")).toBeGreaterThan(logged.indexOf("sent"));
    await screenshot(page, "11-user-history");

    // The same history opens straight from its URL.
    await page.goto(`${herald.url}/users?user=u-1`);
    const rows = page.getByRole("row").filter({ hasText: "order.paid" });
    await expect.poll(() => rows.count(), EVENTUALLY).toBe(2);

    // Delivery → Dead letters: the SMS, with the reason it died.
    // An admin lands on the overview; the dead letters are a tab beside it.
    await page.getByRole("link", { name: "Delivery" }).click();
    await page.waitForURL(/\/delivery\/overview$/);
    await page.getByRole("link", { name: "Dead letters" }).click();
    await page.waitForURL(/\/delivery\/dead-letters$/);
    const deadRow = page.getByRole("row").filter({ hasText: "u-1" }).filter({ hasText: "order.paid" });
    await expect.poll(() => deadRow.textContent(), EVENTUALLY).toContain("provider_rejected:21211");
    expect(await deadRow.textContent()).toContain("SMS");
    await deadRow.getByRole("button", { name: /^Details of / }).click();
    const deadDetails = page.getByRole("row").filter({ hasText: "Last error" });
    await expect.poll(() => deadDetails.textContent(), EVENTUALLY).toContain('"body": "Paid"');
    await screenshot(page, "12-dead-letters");

    // Replaying resets the attempts and sends it again; the number is still invalid, so it dies again.
    await deadRow.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Replay selected (1)" }).click();
    const dialog = page.getByRole("dialog", { name: "Replay 1 dead letter?" });
    await expect.poll(() => dialog.textContent(), EVENTUALLY).toContain("attempts reset to 0");
    await dialog.getByRole("button", { name: "Replay" }).click();
    await expect.poll(() => page.getByText("Replayed 1 notification").isVisible(), EVENTUALLY).toBe(true);
    await screenshot(page, "13-replayed");

    // Sandbox outbox: the email, as the sandbox provider received it.
    await page.getByRole("link", { name: "Sandbox outbox" }).click();
    await page.waitForURL(/\/delivery\/sandbox$/);
    const sentRow = page.getByRole("row").filter({ hasText: BOUNCING_EMAIL }).filter({ hasText: "Order paid" });
    await expect.poll(() => sentRow.count(), EVENTUALLY).toBe(1);
    expect(await sentRow.textContent()).toContain("Email");
    await page.getByText("Test identities").click();
    const identity = page.getByRole("row").filter({ hasText: INVALID_NUMBER });
    await expect.poll(() => identity.textContent(), EVENTUALLY).toContain("Rejected with 21211");
    await screenshot(page, "14-sandbox-outbox");
    await page.close();
  });
});
