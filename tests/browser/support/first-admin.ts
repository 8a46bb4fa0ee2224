import type { Page } from "playwright-core";

/** The first admin every browser test signs up as. */
export const ADMIN = { name: "Ada Admin", email: "ada@example.com", password: "correct horse battery staple" };

/** Opens a fresh Herald, lands on /setup and fills the first-admin form (the caller submits it). */
export async function fillFirstAdminForm(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForURL(/\/setup$/);
  await page.getByLabel("Name").fill(ADMIN.name);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill(ADMIN.password);
  await page.getByLabel("Confirm password").fill(ADMIN.password);
}
