import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS } from "./herald-server.ts";

/**
 * A full-page screenshot into test-artifacts/, for looking at the page. Taken from the top: a
 * full-page capture of a scrolled page paints the sticky sidebar and top bar mid-page.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}
