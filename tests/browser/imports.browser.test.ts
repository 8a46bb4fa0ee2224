import fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

const EVENTUALLY = { timeout: 20_000 };

// Six good rows, a bad email, a duplicate id and a bad number: the preview and the report must say so.
const CSV = [
  "id,email,phone,plan,score,signed_up",
  "u-1,ada@example.com,+49 151 1234 5678,pro,12.5,2026-01-31",
  "u-2,grace@example.com,,free,3,2026-02-01",
  "u-3,not-an-email,,free,1,",
  "u-4,alan@example.com,,pro,7,",
  "u-1,again@example.com,,free,2,",
  "u-5,edsger@example.com,,free,twelve,",
  "u-6,barbara@example.com,+1 415 555 0100,pro,9,2026-03-15",
  "u-7,margaret@example.com,,free,5,",
  "u-8,katherine@example.com,,pro,8,",
].join("\n");

describe("Import: upload a CSV, map it, preview, import and read the error report", () => {
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

  it("uploads a file and lands on its mapping with the columns guessed", async () => {
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
    await fillFirstAdminForm(page, herald.url);
    await page.getByRole("button", { name: "Create admin" }).click();
    await page.waitForURL(/\/broadcasts$/);

    await page.getByRole("link", { name: "Import", exact: true }).click();
    await page.waitForURL(/\/imports$/);
    await expect.poll(() => page.getByText("No imports yet").isVisible(), EVENTUALLY).toBe(true);
    await screenshot(page, "50-imports-empty");

    await page.getByLabel("CSV file", { exact: true }).setInputFiles({ name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await page.waitForURL(/\/imports\/\d+$/, EVENTUALLY);
    await expect.poll(() => page.getByRole("heading", { name: "people.csv" }).isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByText("9 rows · 6 columns (comma-separated)").isVisible()).toBe(true);

    expect(await page.getByLabel("Import id as").inputValue()).toBe("externalId");
    expect(await page.getByLabel("Import email as").inputValue()).toBe("email");
    expect(await page.getByLabel("Import phone as").inputValue()).toBe("phone");
    expect(await page.getByLabel("Import plan as").inputValue()).toBe("attribute");
    expect(await page.getByLabel("Attribute name for plan").inputValue()).toBe("plan");
  });

  it("previews the first rows as they would be imported, with each refusal's reason", async () => {
    await page.getByLabel("Type of score").selectOption("number");
    await page.getByLabel("Type of signed_up").selectOption("date");
    const preview = page.getByRole("table", { name: "Preview" });
    await expect.poll(() => preview.textContent(), EVENTUALLY).toContain('attribute "score" "twelve": is not a number such as 42 or -3.5');
    const rows = await preview.locator("tbody tr").allTextContents();
    expect(rows).toHaveLength(9);
    expect(rows[0]).toBe("2u-1ada@example.com+4915112345678pro12.52026-01-31");
    expect(rows[2]).toBe('4Refused: email "not-an-email": must be an email address');
    expect(rows[4]).toBe("6Refused: duplicate external id: first on row 2");
    expect(await page.getByText("3 of the first 9 rows would be refused").isVisible()).toBe(true);
    await screenshot(page, "51-imports-mapping-preview");
  });

  it("imports with a progress bar that completes, and lists the refused rows with a downloadable report", async () => {
    await page.getByRole("button", { name: "Import 9 rows" }).click();
    await expect.poll(() => page.getByText("Import finished").isVisible(), EVENTUALLY).toBe(true);
    const bar = page.getByRole("progressbar", { name: "Done" });
    expect(await bar.getAttribute("aria-valuenow")).toBe("100");
    expect(await page.getByText("9 of 9 rows").isVisible()).toBe(true);
    expect(await page.getByText("6 rows imported, 3 refused: see why below.").isVisible()).toBe(true);

    const refused = page.getByRole("table", { name: "Refused rows" });
    await expect.poll(() => refused.locator("tbody tr").count(), EVENTUALLY).toBe(3);
    const reasons = await refused.locator("tbody tr").allTextContents();
    expect(reasons[0]).toBe('4email "not-an-email": must be an email addressid: u-3, email: not-an-email, plan: free, score: 1');
    // The bar's width eases in; the picture is of where it settles.
    await page.waitForTimeout(500);
    await screenshot(page, "52-imports-done");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download error report (CSV)" }).click()]);
    expect(download.suggestedFilename()).toBe("people-errors.csv");
    const report = fs.readFileSync((await download.path())!, "utf8");
    expect(report.replace(/^\uFEFF/, "").split("\r\n")).toEqual([
      '"row","reason","id","email","phone","plan","score","signed_up"',
      '"4","email ""not-an-email"": must be an email address","u-3","not-an-email","","free","1",""',
      '"6","duplicate external id: first on row 2","u-1","again@example.com","","free","2",""',
      '"7","attribute ""score"" ""twelve"": is not a number such as 42 or -3.5","u-5","edsger@example.com","","free","twelve",""',
      "",
    ]);

    await page.getByRole("link", { name: "← Imports" }).click();
    await page.waitForURL(/\/imports$/);
    const row = page.getByRole("row", { name: /people\.csv/ });
    await expect.poll(() => row.textContent(), EVENTUALLY).toContain("Done");
    expect(await row.textContent()).toContain("Users");
    await screenshot(page, "53-imports-list");
  });

  it("says why a file is refused at upload", async () => {
    await page.getByLabel("CSV file", { exact: true }).setInputFiles({ name: "empty.csv", mimeType: "text/csv", buffer: Buffer.from("id,email\n") });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect.poll(() => page.getByText("The file has a header but no rows").isVisible(), EVENTUALLY).toBe(true);
    await screenshot(page, "54-imports-refused-upload");
  });

  it("maps a list of suppressed addresses with the channel from a column", async () => {
    const csv = "address,channel\ngone@example.com,email\n+1 415 555 0100,sms\nnot-an-address,email\n";
    await page.getByLabel("CSV file", { exact: true }).setInputFiles({ name: "suppressions.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await page.waitForURL(/\/imports\/\d+$/, EVENTUALLY);
    await page.getByRole("radio", { name: /^Suppressions/ }).check();
    expect(await page.getByLabel("Address column").inputValue()).toBe("0");
    expect(await page.getByLabel("Channel", { exact: true }).inputValue()).toBe("col:1");
    const preview = page.getByRole("table", { name: "Preview" });
    await expect.poll(() => preview.locator("tbody tr").allTextContents(), EVENTUALLY).toEqual([
      "2emailgone@example.com",
      "3sms+14155550100",
      '4Refused: email address "not-an-address": must be an email address',
    ]);
    await screenshot(page, "55-imports-suppressions-mapping");
    await page.getByRole("button", { name: "Import 3 rows" }).click();
    await expect.poll(() => page.getByText("2 rows imported, 1 refused: see why below.").isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByText("Newly suppressed").isVisible()).toBe(true);
  });
});

describe("Import: activities with a bad row, and the report to fix it", () => {
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

  it("guesses an activities file, previews it in UTC, imports the good rows and downloads the refused one", async () => {
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
    await fillFirstAdminForm(page, herald.url);
    await page.getByRole("button", { name: "Create admin" }).click();
    await page.waitForURL(/\/broadcasts$/);
    await page.getByRole("link", { name: "Import", exact: true }).click();
    await page.waitForURL(/\/imports$/);

    const csv = [
      "user_id,name,occurred_at,properties",
      'u-1,session_completed,2026-11-01T09:00:00+01:00,"{""minutes"":12}"',
      "u-2,session_completed,2026-11-01T10:00:00Z,",
      "u-3,session_completed,2026-11-01 10:00,",
      "u-1,app_opened,2026-11-02T08:30:00-05:00,",
    ].join("\n");
    await page.getByLabel("CSV file", { exact: true }).setInputFiles({ name: "activities.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await page.waitForURL(/\/imports\/\d+$/, EVENTUALLY);
    await expect.poll(() => page.getByRole("heading", { name: "activities.csv" }).isVisible(), EVENTUALLY).toBe(true);

    expect(await page.getByRole("radio", { name: /^Activities/ }).isChecked()).toBe(true);
    expect(await page.getByLabel("User id column").inputValue()).toBe("0");
    expect(await page.getByLabel("Activity name column").inputValue()).toBe("1");
    expect(await page.getByLabel("Occurred at column").inputValue()).toBe("2");
    expect(await page.getByLabel("Activity key column").inputValue()).toBe("-1");
    expect(await page.getByLabel("Properties column").inputValue()).toBe("3");
    const preview = page.getByRole("table", { name: "Preview" });
    await expect.poll(() => preview.locator("tbody tr").allTextContents(), EVENTUALLY).toEqual([
      '2u-1session_completed2026-11-01T08:00:00.000Z{"minutes":12}',
      "3u-2session_completed2026-11-01T10:00:00.000Z",
      '4Refused: occurred at "2026-11-01 10:00": must be an ISO 8601 date-time such as 2026-11-30T12:00:00Z',
      "5u-1app_opened2026-11-02T13:30:00.000Z",
    ]);
    await screenshot(page, "56-imports-activities-mapping");

    await page.getByRole("button", { name: "Import 4 rows" }).click();
    await expect.poll(() => page.getByText("3 rows imported, 1 refused: see why below.").isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByRole("progressbar", { name: "Done" }).getAttribute("aria-valuenow")).toBe("100");
    expect(await page.getByText("Activities recorded").isVisible()).toBe(true);
    const refused = page.getByRole("table", { name: "Refused rows" });
    await expect.poll(() => refused.locator("tbody tr").count(), EVENTUALLY).toBe(1);
    await page.waitForTimeout(500);
    await screenshot(page, "57-imports-activities-done");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download error report (CSV)" }).click()]);
    expect(download.suggestedFilename()).toBe("activities-errors.csv");
    const report = fs.readFileSync((await download.path())!, "utf8");
    expect(report.replace(/^\uFEFF/, "").split("\r\n")).toEqual([
      '"row","reason","user_id","name","occurred_at","properties"',
      '"4","occurred at ""2026-11-01 10:00"": must be an ISO 8601 date-time such as 2026-11-30T12:00:00Z","u-3","session_completed","2026-11-01 10:00",""',
      "",
    ]);
  });

  it("maps a devices file with the platform from a column and refuses a repeated token", async () => {
    await page.getByRole("link", { name: "← Imports" }).click();
    await page.waitForURL(/\/imports$/);
    const csv = "user,push_token,platform\nu-1,tok-a,iOS\nu-2,tok-b,android\nu-3,tok-a,web\nu-4,tok-c,blackberry\n";
    await page.getByLabel("CSV file", { exact: true }).setInputFiles({ name: "devices.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await page.waitForURL(/\/imports\/\d+$/, EVENTUALLY);
    await expect.poll(() => page.getByRole("radio", { name: /^Devices/ }).isChecked(), EVENTUALLY).toBe(true);
    expect(await page.getByLabel("Token column").inputValue()).toBe("1");
    expect(await page.getByLabel("Platform", { exact: true }).inputValue()).toBe("col:2");
    const preview = page.getByRole("table", { name: "Preview" });
    await expect.poll(() => preview.locator("tbody tr").allTextContents(), EVENTUALLY).toEqual([
      "2u-1iostok-a",
      "3u-2androidtok-b",
      "4Refused: duplicate token: first on row 2",
      '5Refused: platform "blackberry": "blackberry" is not a platform: use ios, android or web',
    ]);
    await screenshot(page, "58-imports-devices-mapping");
    await page.getByRole("button", { name: "Import 4 rows" }).click();
    await expect.poll(() => page.getByText("2 rows imported, 2 refused: see why below.").isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByText("New devices").isVisible()).toBe(true);
    await page.waitForTimeout(500);
    await screenshot(page, "59-imports-devices-done");
  });
});
