import fs from "node:fs";
import path from "node:path";
import { ingestEvents, openDatabase, type Database } from "@herald/db";
import { seedSupportWorkspace } from "@herald/db/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

const EVENTUALLY = { timeout: 30_000 };

describe("an admin erases a user from the user page", () => {
  const herald = useHeraldServer();
  let browser: Browser;
  let page: Page;
  let database: Database;
  let adaNotifications: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    database = openDatabase(herald.databaseUrl);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await fillFirstAdminForm(page, herald.url);
    await page.getByRole("button", { name: "Create admin" }).click();
    await page.waitForURL(/\/broadcasts$/);
    // The server's workers send these through the sandbox: the outbox holds what Ada received.
    await seedSupportWorkspace(database.pool);
    const [promo] = await ingestEvents(database.pool, [{ eventId: "erase-promo-1", type: "promo.weekly", userId: "ada", data: {} }]);
    adaNotifications = promo!.notifications.map((n) => n.id);
  });

  afterAll(async () => {
    await browser?.close();
    await database?.close();
  });

  it("asks for the id typed again, erases, and shows what it did", async () => {
    // Wait until the sandbox has sent Ada's SMS and push, so there is a history to anonymise.
    await expect
      .poll(async () => (await database.pool.query("SELECT count(*)::int AS n FROM herald.sandbox_messages WHERE notification_id = ANY ($1::bigint[])", [adaNotifications])).rows[0].n, EVENTUALLY)
      .toBe(2);
    await page.goto(`${herald.url}/users?user=ada`);
    await expect.poll(() => page.getByRole("region", { name: "Profile" }).textContent(), EVENTUALLY).toContain("Ada.Lovelace@example.com");
    const zone = page.getByRole("region", { name: "Danger zone" });
    await zone.getByRole("button", { name: "Erase user…" }).click();
    const dialog = page.getByRole("dialog", { name: "Erase ada?" });
    const erase = dialog.getByRole("button", { name: "Erase permanently" });
    await dialog.getByLabel("Type ada to confirm").fill("Ada");
    expect(await erase.isDisabled()).toBe(true);
    await page.screenshot({ path: path.join(ARTIFACTS, "erase-01-confirmation.png") });
    await dialog.getByLabel("Type ada to confirm").fill("ada");
    expect(await erase.isDisabled()).toBe(false);
    await erase.click();

    const done = page.getByRole("region", { name: "ada was erased" });
    await expect.poll(() => done.textContent(), EVENTUALLY).toContain("Nothing in Herald names this user any more");
    const table = done.getByRole("table", { name: "What the erasure did" });
    expect(await table.getByRole("row").filter({ hasText: "Notifications anonymised" }).textContent()).toContain("3");
    expect(await table.getByRole("row").filter({ hasText: "Devices deleted" }).textContent()).toContain("2");
    await screenshot(page, "erase-02-erased");
  });

  it("leaves her history anonymised: the sandbox outbox shows [erased], the user is gone", async () => {
    const { rows } = await database.pool.query(
      "SELECT user_id, address, rendered, vars FROM herald.notifications WHERE id = ANY ($1::bigint[])",
      [adaNotifications],
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toEqual({ user_id: null, address: null, rendered: null, vars: {} });

    await page.getByRole("link", { name: "Delivery" }).click();
    await page.getByRole("link", { name: "Sandbox outbox" }).click();
    await page.waitForURL(/\/delivery\/sandbox$/);
    const erasedRows = page.getByRole("row").filter({ hasText: "[erased]" });
    await expect.poll(() => erasedRows.count(), EVENTUALLY).toBe(2);
    expect(await page.getByText("+4915112345678").count()).toBe(0);
    await screenshot(page, "erase-03-sandbox-anonymised");

    await page.goto(`${herald.url}/users?user=ada`);
    await expect.poll(() => page.getByText("No user has the id ada").isVisible(), EVENTUALLY).toBe(true);
  });

  it("records the erasure in the audit log without her id or address", async () => {
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("link", { name: "Audit log" }).click();
    await page.waitForURL(/\/settings\/audit-log$/);
    const entry = page.getByRole("row").filter({ hasText: "users.erase" });
    await expect.poll(() => entry.count(), EVENTUALLY).toBe(1);
    const text = (await entry.textContent()) ?? "";
    expect(text).toMatch(/erased-user:\d+/);
    expect(text).not.toContain("Ada.Lovelace");
    expect(text).not.toMatch(/user:ada\b/);
    await screenshot(page, "erase-04-audit-log");
  });
});
