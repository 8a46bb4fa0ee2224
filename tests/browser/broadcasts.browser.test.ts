import fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

const EVENTUALLY = { timeout: 30_000 };
// The watch follows a sending broadcast every few seconds: "Sent" shows well inside EVENTUALLY.
/** Option texts without the size each option shows after the name. */
const names = (texts: string[]) => texts.map((text) => text.replace(/(not counted yet|[\d,]+ (person|people))$/, ""));
const USERS = ["ada", "grace", "alan", "edsger"].map((name, index) => ({ id: `u-${index + 1}`, email: `${name}@example.com` }));

describe("Broadcasts: compose, dry-run, send through the sandbox, pause and resume", () => {
  const herald = useHeraldServer();
  let browser: Browser;
  let page: Page;
  let segmentId = "";
  beforeAll(async () => {
    browser = await launchChromium();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A tRPC mutation from the signed-in page, failing the test with the server's answer. */
  async function mutate<T = unknown>(procedure: string, input: unknown): Promise<T> {
    const answer = await page.evaluate(
      async ({ procedure, input }) => {
        const response = await fetch(`/trpc/${procedure}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
        return { status: response.status, body: await response.text() };
      },
      { procedure, input },
    );
    if (answer.status !== 200) throw new Error(`${procedure} answered ${answer.status}: ${answer.body}`);
    return (JSON.parse(answer.body) as { result: { data: T } }).result.data;
  }

  async function api(key: string, method: "PUT" | "POST", route: string, body: unknown) {
    const response = await fetch(`${herald.url}/api/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${await response.text()}`);
  }

  async function publish(subject: string) {
    await mutate("templates.saveDraft", {
      key: "winter.sale",
      body: { variables: [], content: { en: { email: { subject, html: `<h1>${subject}</h1><p>Everything is 25 % off until Sunday.</p>` } } } },
    });
    await mutate("templates.publish", { key: "winter.sale" });
  }

  /** Steps 1 to 3 of the composer, from the Broadcasts page. */
  async function compose(name: string) {
    await page.getByRole("link", { name: "Broadcasts", exact: true }).click();
    await page.waitForURL(/\/broadcasts$/);
    await page.getByRole("link", { name: "New broadcast" }).first().click();
    await page.waitForURL(/\/broadcasts\/new$/);
    await page.getByLabel("Name").fill(name);
    // The pickers search on the server: the segment is found by a word of its name.
    await page.getByRole("combobox", { name: "Segment" }).fill("EVERYONE");
    await expect.poll(() => page.getByRole("listbox", { name: "Segment" }).getByRole("option").allTextContents().then(names), EVENTUALLY).toEqual(["Everyone with an email"]);
    await page.getByRole("option", { name: /Everyone with an email/ }).click();
    await expect.poll(() => page.getByText("has an email address").isVisible(), EVENTUALLY).toBe(true);
    await page.getByRole("button", { name: "Continue", exact: true }).click();

    await page.getByRole("combobox", { name: "Template" }).fill("winter");
    await page.getByRole("option", { name: /Winter sale/ }).click();
    await expect.poll(() => page.getByLabel("Version of variant A").inputValue(), EVENTUALLY).toBe("2");
  }

  it("offers a first broadcast from an empty list", async () => {
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
    await fillFirstAdminForm(page, herald.url);
    await page.getByRole("button", { name: "Create admin" }).click();
    await page.waitForURL(/\/broadcasts$/);
    await expect.poll(() => page.getByText("No broadcasts yet").isVisible(), EVENTUALLY).toBe(true);
    await screenshot(page, "70-broadcasts-empty");

    // With nothing to pick, the pickers say so and link to where it is made.
    await page.goto(`${herald.url}/broadcasts/new`);
    await expect.poll(() => page.getByText("No segments yet").isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByRole("link", { name: "Build the first segment" }).getAttribute("href")).toBe("/segments/new");
    await screenshot(page, "70a-composer-no-segments");
    await page.goto(`${herald.url}/templates`);
    await page.getByRole("button", { name: "New template" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New template" });
    await expect.poll(() => dialog.getByText("No categories yet").isVisible(), EVENTUALLY).toBe(true);
    expect(await dialog.getByRole("link", { name: "Settings → Categories" }).getAttribute("href")).toBe("/settings/categories");
    await screenshot(page, "70b-template-no-categories");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    const { key } = await mutate<{ key: string }>("apiKeys.create", { name: "Seeder", scope: "admin" });
    await api(key, "PUT", "/categories/marketing", { label: "Marketing" });
    for (const user of USERS) await api(key, "PUT", `/users/${user.id}`, { email: user.email });
    await mutate("templates.create", { key: "winter.sale", name: "Winter sale", channels: ["email"], defaultCategory: "marketing", defaultLocale: "en" });
    await publish("Winter sale: 25 % off");
    await publish("Last days: 25 % off everything");
    ({ id: segmentId } = await mutate<{ id: string }>("segments.create", { name: "Everyone with an email", description: "", rule: { kind: "and", children: [{ kind: "has_email" }] } }));
    // More segments than a picker page holds, and names with LIKE's wildcards in them.
    for (let i = 1; i <= 24; i++) {
      await mutate("segments.create", { name: `Cohort ${String(i).padStart(2, "0")}`, description: "", rule: { kind: "attribute", attribute: "cohort", op: "eq", value: String(i) } });
    }
    await mutate("segments.create", { name: "VIP_100% club", description: "", rule: { kind: "attribute", attribute: "vip", op: "eq", value: "gold" } });
    await mutate("segments.create", { name: "VIPs at 100 percent", description: "", rule: { kind: "attribute", attribute: "vip", op: "eq", value: "gold" } });
  });

  it("pages and searches the segment picker on the server, wildcards taken literally", async () => {
    await page.goto(`${herald.url}/broadcasts/new`);
    const picker = page.getByRole("listbox", { name: "Segment" });
    await expect.poll(() => picker.getByRole("option").count(), EVENTUALLY).toBe(20);
    await page.getByRole("button", { name: "Show more" }).click();
    await expect.poll(() => picker.getByRole("option").count(), EVENTUALLY).toBe(27);
    expect(await page.getByRole("button", { name: "Show more" }).count()).toBe(0);
    await page.getByRole("combobox", { name: "Segment" }).fill("p_100%");
    await expect.poll(() => picker.getByRole("option").allTextContents().then(names), EVENTUALLY).toEqual(["VIP_100% club"]);
    await screenshot(page, "70c-segment-picker-search");
    await page.getByRole("combobox", { name: "Segment" }).fill("no such cohort");
    await expect.poll(() => page.getByText("Nothing matches “no such cohort”.").isVisible(), EVENTUALLY).toBe(true);
    // Arrow keys and Enter pick from the box, as in a combobox.
    await page.getByRole("combobox", { name: "Segment" }).fill("cohort 2");
    await expect.poll(() => picker.getByRole("option").count(), EVENTUALLY).toBe(5);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".picker-selected").textContent(), EVENTUALLY).toContain("Cohort 20");
    // A chosen segment is a change: leaving asks first.
    await page.getByRole("link", { name: "Broadcasts", exact: true }).click();
    await page.getByRole("dialog", { name: "Leave without saving?" }).getByRole("button", { name: "Leave and lose changes" }).click();
    await page.waitForURL(/\/broadcasts$/, EVENTUALLY);
  });

  it("composes an A/B broadcast step by step and dry-runs it", async () => {
    await compose("Winter sale");
    // An A/B split: the new variant takes the other published version, and the shares split evenly.
    await page.getByRole("button", { name: "Add variant (A/B test)" }).click();
    expect(await page.getByLabel("Version of variant B").inputValue()).toBe("1");
    expect(await page.getByLabel("Share of variant A (%)").inputValue()).toBe("50");
    expect(await page.getByLabel("Share of variant B (%)").inputValue()).toBe("50");
    await page.getByRole("button", { name: "Add value" }).click();
    await page.getByLabel("Name of value 1").fill("promo_code");
    await page.getByLabel("Value 1", { exact: true }).fill("WINTER25");
    await screenshot(page, "71-composer-content");
    await page.getByRole("button", { name: "Continue", exact: true }).click();

    // The template's channel and default category come pre-filled.
    expect(await page.getByLabel("Email").isChecked()).toBe(true);
    expect(await page.getByLabel("SMS").isDisabled()).toBe(true);
    // The category is a select of the workspace's categories, not free text.
    expect(await page.getByLabel("Category", { exact: true }).inputValue()).toBe("marketing");
    // The options arrive with the categories query; until then the select says it is loading.
    await expect.poll(() => page.getByLabel("Category", { exact: true }).locator("option").allTextContents(), EVENTUALLY).toEqual(["Marketing (marketing)"]);
    await page.getByRole("button", { name: "Continue", exact: true }).click();

    expect(await page.getByLabel("Send now").isChecked()).toBe(true);
    await page.getByRole("button", { name: "Continue to review" }).click();
    await page.waitForURL(/\/broadcasts\/\d+$/, EVENTUALLY);

    const review = page.getByRole("region", { name: "Review" });
    await expect.poll(() => review.textContent(), EVENTUALLY).toContain("Everyone with an email");
    expect(await review.textContent()).toContain("A: v2 (50 %) · B: v1 (50 %)");
    expect(await review.textContent()).toContain("data.promo_code = “WINTER25”");
    const dryRun = page.getByRole("region", { name: "Dry run" });
    await expect.poll(() => dryRun.getByRole("term").count(), EVENTUALLY).toBe(4);
    const stats = await dryRun.locator(".broadcast-stat").allTextContents();
    expect(stats).toEqual(["In the segment4", "Held out0", "Notifications to send4", "Skipped by the gates0"]);
    expect(await dryRun.getByRole("table", { name: "By variant" }).isVisible()).toBe(true);
    // The chart's table view says the same in rows.
    await dryRun.getByRole("button", { name: "Table" }).click();
    expect(await dryRun.getByRole("table", { name: "Verdict" }).textContent()).toContain("Would be sent4100 %");
    await screenshot(page, "72-composer-review-dry-run");
  });

  it("sends it now and follows it to its report and CSV", async () => {
    await page.getByRole("button", { name: "Send now" }).click();
    const confirm = page.getByRole("dialog", { name: "Send “Winter sale” now?" });
    expect(await confirm.textContent()).toContain("About 4 notifications");
    await confirm.getByRole("button", { name: "Send it now" }).click();

    await expect.poll(() => page.getByRole("region", { name: /Progress|Delivery/ }).isVisible(), EVENTUALLY).toBe(true);
    await screenshot(page, "73-broadcast-sending");
    await expect.poll(() => page.locator(".page-header .badge").first().textContent(), EVENTUALLY).toBe("Sent");
    const counters = page.getByRole("region", { name: "Delivery" }).locator(".broadcast-stat");
    await expect.poll(async () => (await counters.allTextContents()).slice(0, 4), EVENTUALLY).toEqual(["Targeted4", "Held out0", "Pending0", "Sent4"]);

    const report = page.getByRole("region", { name: "Report" });
    await expect.poll(() => report.getByRole("table", { name: "By channel and variant" }).isVisible(), EVENTUALLY).toBe(true);
    expect(await report.getByRole("table", { name: "Variants compared" }).textContent()).toContain("too early to tell");
    await screenshot(page, "74-broadcast-report");

    const [download] = await Promise.all([page.waitForEvent("download"), report.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^broadcast-\d+-report\.csv$/);
    const csv = fs.readFileSync((await download.path())!, "utf8").trim().split("\n");
    expect(csv[0]).toBe("channel,variant,targeted,sent,delivered,opened,clicked,failed,skipped,canceled,pending");
    expect(csv.at(-1)).toMatch(/^all,all,4,4,/);

    await page.getByRole("link", { name: "← Broadcasts" }).click();
    const row = page.getByRole("row", { name: /Winter sale/ });
    await expect.poll(() => row.textContent(), EVENTUALLY).toContain("4 sent of 4");
    expect(await row.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("100");
  }, 180_000);

  it("pauses and resumes a throttled broadcast while it sends, then cancels it", async () => {
    await compose("Slow drip");
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByLabel("Limit how fast it sends").check();
    await page.getByLabel("Sends per minute").fill("1");
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByRole("button", { name: "Continue to review" }).click();
    await page.waitForURL(/\/broadcasts\/\d+$/, EVENTUALLY);
    await expect.poll(() => page.getByRole("region", { name: "Review" }).textContent(), EVENTUALLY).toContain("at most 1 per minute");
    const send = page.getByRole("button", { name: "Send now" });
    await expect.poll(() => send.isEnabled(), EVENTUALLY).toBe(true);
    await send.click();
    await page.getByRole("dialog", { name: "Send “Slow drip” now?" }).getByRole("button", { name: "Send it now" }).click();

    const status = page.locator(".page-header .badge").first();
    await expect.poll(() => status.textContent(), EVENTUALLY).toBe("Sending");
    // One a minute: the first goes at once, the rest wait their turn.
    const progress = page.getByRole("region", { name: "Progress" });
    await expect.poll(async () => (await progress.locator(".broadcast-stat").allTextContents())[0], EVENTUALLY).toBe("Targeted4");
    await screenshot(page, "75-throttled-sending");

    await page.getByRole("button", { name: "Pause" }).click();
    await expect.poll(() => status.textContent(), EVENTUALLY).toBe("Paused");
    await expect.poll(() => progress.textContent(), EVENTUALLY).toContain("Paused by Ada Admin");
    await screenshot(page, "76-paused");

    await page.getByRole("button", { name: "Resume" }).click();
    await expect.poll(() => status.textContent(), EVENTUALLY).toBe("Sending");
    await expect.poll(() => page.getByRole("button", { name: "Pause" }).isVisible(), EVENTUALLY).toBe(true);

    await page.getByRole("button", { name: "Cancel broadcast" }).click();
    await page.getByRole("dialog", { name: "Cancel “Slow drip”?" }).getByRole("button", { name: "Cancel broadcast" }).click();
    await expect.poll(() => status.textContent(), EVENTUALLY).toBe("Canceled");
    const counters = await page.getByRole("region", { name: "Progress" }).locator(".broadcast-stat").allTextContents();
    expect(counters).toContain("Pending0");
    expect(counters.find((c) => c.startsWith("Canceled"))).not.toBe("Canceled0");
    await screenshot(page, "77-canceled");
  });

  it("schedules one for a local time in each recipient's zone, then unschedules it back to a draft", async () => {
    await compose("Christmas eve");
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByLabel("At a local time for each recipient").check();
    await page.getByRole("button", { name: "Continue to review" }).click();
    // Not chosen yet: the step says so instead of moving on.
    expect(await page.getByText("Pick the date and time.").isVisible()).toBe(true);
    await page.getByLabel("Local date and time").fill("2027-12-24T09:00");
    await page.getByRole("button", { name: "Continue to review" }).click();
    await page.waitForURL(/\/broadcasts\/\d+$/, EVENTUALLY);
    await expect.poll(() => page.getByRole("region", { name: "Review" }).textContent(), EVENTUALLY).toMatch(/Dec 24, 2027, 9:00\sAM in each recipient's time zone|24 Dec 2027, 09:00 in each recipient's time zone/);

    const schedule = page.getByRole("button", { name: "Schedule", exact: true });
    await expect.poll(() => schedule.isEnabled(), EVENTUALLY).toBe(true);
    await schedule.click();
    await page.getByRole("dialog", { name: "Schedule “Christmas eve”?" }).getByRole("button", { name: "Schedule it" }).click();
    const status = page.locator(".page-header .badge").first();
    await expect.poll(() => status.textContent(), EVENTUALLY).toBe("Scheduled");
    expect(await page.getByRole("region", { name: "Scheduled" }).textContent()).toContain("Who is in the segment is decided when it starts");
    await screenshot(page, "78-scheduled");

    await page.getByRole("button", { name: "Unschedule" }).click();
    await expect.poll(() => status.textContent(), EVENTUALLY).toBe("Draft");
    expect(await page.getByRole("region", { name: "Review" }).isVisible()).toBe(true);
  });

  it("lists every broadcast with its status and progress", async () => {
    await page.getByRole("link", { name: "← Broadcasts" }).click();
    const rows = page.getByRole("row");
    await expect.poll(() => rows.count(), EVENTUALLY).toBe(4);
    expect(await page.getByRole("row", { name: /Slow drip/ }).textContent()).toContain("Canceled");
    expect(await page.getByRole("row", { name: /Christmas eve/ }).textContent()).toContain("Draft");
    await page.getByLabel("Status").selectOption("sent");
    await expect.poll(() => rows.count(), EVENTUALLY).toBe(2);
    await page.getByLabel("Status").selectOption("");
    await expect.poll(() => rows.count(), EVENTUALLY).toBe(4);
    await screenshot(page, "79-broadcasts-list");
  });

  it("says when the segment matches nobody, and offers no send", async () => {
    await mutate("segments.create", { name: "Enterprise accounts", rule: { kind: "attribute", attribute: "plan", op: "eq", value: "enterprise" } });
    await page.getByRole("link", { name: "New broadcast" }).first().click();
    await page.waitForURL(/\/broadcasts\/new$/);
    await page.getByLabel("Name").fill("Nobody home");
    await page.getByRole("combobox", { name: "Segment" }).fill("enterprise");
    await page.getByRole("option", { name: /Enterprise accounts/ }).click();
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByRole("combobox", { name: "Template" }).fill("winter");
    await page.getByRole("option", { name: /Winter sale/ }).click();
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByRole("button", { name: "Continue to review" }).click();
    await page.waitForURL(/\/broadcasts\/\d+$/, EVENTUALLY);
    await expect.poll(() => page.getByText("The segment matches nobody right now").isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByRole("button", { name: "Send now" }).isDisabled()).toBe(true);
    await screenshot(page, "80-matches-nobody");
  });
});
