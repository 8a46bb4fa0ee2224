import fs from "node:fs";
import { chromium, type Browser } from "playwright-core";

const CANDIDATES = [process.env.HERALD_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"];

/**
 * Debian's Chromium, driven by playwright-core. Never a downloaded browser, and never a silent
 * skip: without Chromium the browser tests fail with how to install it.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = CANDIDATES.find((p): p is string => !!p && fs.existsSync(p));
  if (!executablePath) {
    throw new Error(
      "Chromium was not found (looked for /usr/bin/chromium). Install Debian's package: " +
        "`apt-get install -y chromium` (or set HERALD_CHROMIUM to its path). Browser tests never download a browser.",
    );
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
