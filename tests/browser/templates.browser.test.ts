import fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

const EVENTUALLY = { timeout: 15_000 };
const FIRST_SUBJECT = "Your order {{ data.order_id }} has shipped";
const SECOND_SUBJECT = "Order {{ data.order_id }} is on its way";

describe("Templates: write, preview, publish, revise and compare", () => {
  const herald = useHeraldServer();
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const preview = () => page.getByRole("region", { name: "Preview" });
  const problems = () => page.getByRole("region", { name: "Problems" });
  const email = () => page.frameLocator('iframe[title^="Email preview"]');

  it("creates a template and previews its draft live with the variable's example", async () => {
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await fillFirstAdminForm(page, herald.url);
    await page.getByRole("button", { name: "Create admin" }).click();
    await page.waitForURL(/\/broadcasts$/);

    await page.getByRole("link", { name: "Templates" }).click();
    await page.waitForURL(/\/templates$/);
    await expect.poll(() => page.getByText("No templates yet").isVisible(), EVENTUALLY).toBe(true);
    await screenshot(page, "30-templates-empty");

    await page.getByRole("button", { name: "New template" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New template" });
    await dialog.getByLabel("Key").fill("order.shipped");
    await dialog.getByLabel("Name").fill("Order shipped");
    expect(await dialog.getByLabel("Email").isChecked()).toBe(true);
    expect(await dialog.getByLabel("Default locale").inputValue()).toBe("en");
    await screenshot(page, "31-new-template");
    await dialog.getByRole("button", { name: "Create template" }).click();
    await page.waitForURL(/\/templates\/order\.shipped$/);

    await page.getByLabel("Subject").fill(FIRST_SUBJECT);
    await page.getByLabel("HTML body").fill("<h1>Good news</h1>\n<p>Order {{ data.order_id }} left our warehouse today.</p>");
    // Used before it is declared: the problems list says so, and offers to declare it.
    await expect.poll(() => problems().textContent(), EVENTUALLY).toContain("data.order_id, which is not declared");
    await page.getByRole("button", { name: "Add variable" }).click();
    await page.getByLabel("Name of variable 1").fill("data.order_id");
    await page.getByLabel("Example of data.order_id").fill("A-1042");
    await page.getByLabel("Description of data.order_id").fill("The order's number, as the customer sees it");

    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("Your order A-1042 has shipped");
    await expect.poll(() => email().getByText("Order A-1042 left our warehouse today.").isVisible(), EVENTUALLY).toBe(true);
    await expect.poll(() => problems().textContent(), EVENTUALLY).toContain("Nothing stops this from being published.");
    expect(await page.getByText("Unsaved changes").isVisible()).toBe(true);
    await screenshot(page, "32-draft-preview");

    await page.keyboard.press("Control+s");
    await expect.poll(() => page.getByText("Unsaved changes").count(), EVENTUALLY).toBe(0);
    expect(await page.getByText(/^Saved /).isVisible()).toBe(true);
  });

  it("publishes v1, starts a new draft from it and publishes v2 after seeing the diff", async () => {
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    const first = page.getByRole("dialog", { name: "Publish v1?" });
    await first.getByRole("button", { name: "Publish v1" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Edit (start a draft from v1)" }).isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByText("Published v1").isVisible()).toBe(true);
    // A published version is read-only.
    expect(await page.getByLabel("Subject").getAttribute("readonly")).not.toBeNull();
    await expect.poll(() => email().getByText("Order A-1042 left our warehouse today.").isVisible(), EVENTUALLY).toBe(true);
    await screenshot(page, "33-published-v1");

    await page.getByRole("button", { name: "Edit (start a draft from v1)" }).click();
    const subject = page.getByLabel("Subject");
    await expect.poll(() => subject.getAttribute("readonly"), EVENTUALLY).toBeNull();
    expect(await subject.inputValue()).toBe(FIRST_SUBJECT);
    await subject.fill(SECOND_SUBJECT);
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("Order A-1042 is on its way");

    // Publishing saves the unsaved change first, then shows what changes against v1.
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    const second = page.getByRole("dialog", { name: "Publish v2?" });
    await expect.poll(() => second.locator("del").first().textContent(), EVENTUALLY).toBe(FIRST_SUBJECT);
    expect(await second.locator("ins").first().textContent()).toBe(SECOND_SUBJECT);
    await screenshot(page, "34-publish-v2-diff");
    await second.getByRole("button", { name: "Publish v2" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Edit (start a draft from v2)" }).isVisible(), EVENTUALLY).toBe(true);
  });

  it("lists the versions and shows the subject's removed and added lines between v1 and v2", async () => {
    await page.getByRole("link", { name: "History" }).click();
    await page.waitForURL(/\/templates\/order\.shipped\/history$/);
    const versions = page.getByRole("region", { name: "Versions", exact: true });
    await expect.poll(() => versions.locator("tbody tr").count(), EVENTUALLY).toBe(2);
    const rows = await versions.locator("tbody tr").allTextContents();
    expect(rows[0]).toMatch(/^v2.*Current/);
    expect(rows[0]).toContain("Ada Admin");
    expect(rows[1]).toMatch(/^v1.*Published/);

    const compare = page.getByRole("region", { name: "Compare versions" });
    expect(await compare.getByLabel("From", { exact: true }).inputValue()).toBe("1");
    expect(await compare.getByLabel("To", { exact: true }).inputValue()).toBe("2");
    const subjectDiff = compare.getByRole("region", { name: "Changes to en · email · subject" });
    await expect.poll(() => subjectDiff.locator("del").textContent(), EVENTUALLY).toBe(FIRST_SUBJECT);
    expect(await subjectDiff.locator("ins").textContent()).toBe(SECOND_SUBJECT);
    // Removed on the left with v1's line number, added on the right with v2's.
    const cells = await subjectDiff.locator("tbody tr").first().locator("td").allTextContents();
    expect(cells).toEqual(["1", FIRST_SUBJECT, "1", SECOND_SUBJECT]);
    await screenshot(page, "35-history-diff");

    await page.getByRole("link", { name: "Templates", exact: true }).click();
    await page.waitForURL(/\/templates$/);
    const row = page.getByRole("row", { name: /Order shipped/ });
    await expect.poll(() => row.textContent(), EVENTUALLY).toContain("v2");
    expect(await row.textContent()).toContain("by Ada Admin");
    await screenshot(page, "36-templates-list");
  });

  it("points a Liquid syntax error at its line and column", async () => {
    await page.getByRole("link", { name: "Order shipped" }).click();
    await page.getByRole("button", { name: "Edit (start a draft from v2)" }).click();
    const subject = page.getByLabel("Subject");
    await expect.poll(() => subject.getAttribute("readonly"), EVENTUALLY).toBeNull();
    await subject.fill("Order {{ data.order_id is on its way");
    await expect.poll(() => problems().textContent(), EVENTUALLY).toMatch(/line 1, column \d+/);
    expect(await problems().textContent()).toContain("en · Email · Subject");
    await screenshot(page, "37-syntax-error");

    // Go to field lands in the input the problem is about.
    await problems().getByRole("button", { name: /Go to field/ }).first().click();
    expect(await subject.evaluate((input) => input === document.activeElement)).toBe(true);
  });

  it("counts SMS segments, keeps a second locale, renders push, and sends a test SMS to the member's own phone", async () => {
    // The syntax error above was never saved: leaving asks first.
    await page.getByRole("link", { name: "Templates", exact: true }).click();
    const leave = page.getByRole("dialog", { name: "Leave without saving?" });
    await leave.getByRole("button", { name: "Leave and lose changes" }).click();
    await page.waitForURL(/\/templates$/);

    await page.getByRole("button", { name: "New template" }).click();
    const dialog = page.getByRole("dialog", { name: "New template" });
    await dialog.getByLabel("Key").fill("otp.login");
    await dialog.getByLabel("Name").fill("Login code");
    await dialog.getByLabel("Email").uncheck();
    await dialog.getByLabel("SMS").check();
    await dialog.getByLabel("Push").check();
    await dialog.getByRole("button", { name: "Create template" }).click();
    await page.waitForURL(/\/templates\/otp\.login$/);

    await page.getByRole("button", { name: "Add variable" }).click();
    await page.getByLabel("Name of variable 1").fill("data.code");
    await page.getByLabel("Example of data.code").fill("493021");
    const body = page.getByLabel("Body", { exact: true });
    await body.fill("Your login code is {{ data.code }}. It expires in 10 minutes. Never share it with anyone, not even someone who says they work for us.");
    expect(await page.getByText(/^GSM-7 · 1 segment · \d+ characters$/).first().isVisible()).toBe(true);
    await body.fill(`${await body.inputValue()} If you did not ask for a code, change your password now.`);
    expect(await page.getByText(/^GSM-7 · 2 segments · \d+ characters$/).first().isVisible()).toBe(true);
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("Your login code is 493021.");

    await page.getByRole("tab", { name: "Push" }).click();
    await page.getByLabel("Title").fill("Your login code");
    await page.getByLabel("Body", { exact: true }).fill("{{ data.code }} is valid for 10 minutes");
    await page.getByRole("button", { name: "Add data entry" }).click();
    await page.getByLabel("Key of data entry 1").fill("screen");
    await page.getByLabel("Value of data entry 1").fill("login");
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("493021 is valid for 10 minutes");
    await screenshot(page, "38-push-preview");

    await page.getByRole("button", { name: "+ Add locale" }).click();
    await page.getByLabel("Language tag").fill("xx");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    expect(await page.getByText("Enter a known language").isVisible()).toBe(true);
    await page.getByLabel("Language tag").fill("fr");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    expect(await page.getByRole("tab", { name: "fr" }).getAttribute("aria-selected")).toBe("true");
    await page.getByRole("tab", { name: /^SMS/ }).click();
    await page.getByLabel("Body", { exact: true }).fill("Votre code : {{ data.code }}");
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("Votre code : 493021");
    expect(await preview().textContent()).toContain("SMS in French (fr)");

    // A real user who does not exist is named as such, beside the id.
    await preview().getByLabel("A real user").check();
    await preview().getByLabel("User id").fill("u-nobody");
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain('There is no user "u-nobody"');
    await screenshot(page, "39-sms-french-unknown-user");
    await preview().getByLabel("Example data").check();

    await page.getByRole("button", { name: "Save draft" }).click();
    await expect.poll(() => page.getByText("Unsaved changes").count(), EVENTUALLY).toBe(0);
    await page.getByRole("button", { name: "Send test" }).click();
    const test = page.getByRole("dialog", { name: "Send a test of the draft" });
    expect(await test.getByLabel("Channel").inputValue()).toBe("sms");
    expect(await test.getByLabel("Locale").inputValue()).toBe("fr");
    await test.getByLabel("Your test phone").fill("+15005550006");
    await test.getByRole("button", { name: "Save phone" }).click();
    await expect.poll(() => test.textContent(), EVENTUALLY).toContain("To +15005550006");
    await test.getByRole("button", { name: "Send test SMS" }).click();
    await expect.poll(() => test.textContent(), EVENTUALLY).toContain("Latency");
    expect(await test.getByRole("status").textContent()).toContain("sandbox-sms");
    await screenshot(page, "40-send-test-sms");
  });
});
