import fs from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { ADMIN, fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

const MARKETER = { name: "Mia Marketer", email: "mia@example.com", password: "mia's own long passphrase" };

describe("first admin, an invited marketer, and their sign-in", () => {
  const herald = useHeraldServer();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("creates the first admin, invites a marketer, and the marketer signs in", async () => {
    const admin = await browser.newPage();
    await fillFirstAdminForm(admin, herald.url);
    await screenshot(admin, "01-first-admin");
    await admin.getByRole("button", { name: "Create admin" }).click();
    await admin.waitForURL(/\/broadcasts$/);
    await expect.poll(() => admin.getByText(ADMIN.name).first().isVisible(), { timeout: 15_000 }).toBe(true);

    await admin.getByRole("link", { name: "Settings" }).click();
    await admin.getByRole("link", { name: "Members" }).click();
    await admin.getByLabel("Email").fill(MARKETER.email);
    await admin.getByLabel("Role").selectOption("marketer");
    await admin.getByRole("button", { name: "Invite member" }).click();
    const link = admin.getByRole("textbox", { name: "Invite link" });
    await link.waitFor();
    const inviteUrl = await link.inputValue();
    expect(inviteUrl).toMatch(new RegExp(`^${herald.url}/invite/[A-Za-z0-9_-]{40,}$`));
    await screenshot(admin, "02-invited");
    await admin.close();

    const marketer = await browser.newPage();
    await marketer.goto(inviteUrl);
    await expect.poll(() => marketer.getByText(MARKETER.email).first().isVisible(), { timeout: 15_000 }).toBe(true);
    await marketer.getByLabel("Name").fill(MARKETER.name);
    await marketer.getByLabel("Password", { exact: true }).fill(MARKETER.password);
    await marketer.getByRole("button", { name: "Accept invite" }).click();
    await marketer.waitForURL(/\/broadcasts$/);
    await expect.poll(() => marketer.getByText(MARKETER.name).first().isVisible(), { timeout: 15_000 }).toBe(true);
    await marketer.getByRole("button", { name: "Sign out" }).click();
    await marketer.waitForURL(/\/sign-in/);

    await marketer.getByLabel("Email").fill(MARKETER.email);
    await marketer.getByLabel("Password").fill(MARKETER.password);
    await marketer.getByRole("button", { name: "Sign in" }).click();
    await marketer.waitForURL(/\/broadcasts$/);
    await expect.poll(() => marketer.getByText("Marketer", { exact: true }).first().isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshot(marketer, "03-marketer-signed-in");

    // A marketer does not manage members: the dashboard hides it and the server refuses it.
    await marketer.goto(`${herald.url}/settings/members`);
    await expect.poll(() => marketer.getByRole("button", { name: "Invite member" }).count(), { timeout: 15_000 }).toBe(0);
    const refused = await marketer.evaluate(async () => (await fetch("/trpc/members.list")).status);
    expect(refused).toBe(403);
    await marketer.close();
  });

  it("shows a wrong password inline and stays signed out", async () => {
    const page = await browser.newPage();
    await page.goto(`${herald.url}/sign-in`);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill("not the password at all");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByText("Wrong email or password").isVisible(), { timeout: 15_000 }).toBe(true);
    expect(page.url()).toMatch(/\/sign-in/);
    await screenshot(page, "04-wrong-password");
    await page.close();
  });
});
