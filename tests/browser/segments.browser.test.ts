import fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

const EVENTUALLY = { timeout: 20_000 };
const DAY_MS = 24 * 3600 * 1000;

/**
 * Who did what, so each count below can be worked out by hand:
 * - u-1, u-2: a device, a session yesterday          → recent
 * - u-3:      a device, a session 10 days ago         → lapsed ("Inactive 7 days")
 * - u-4:      a device, never a session               → never sessioned
 * - u-5:      no device, a session 3 days ago         → recent, but push cannot reach them
 * u-1 and u-2 also carry a number attribute, score: 12 and 3.
 */
const POPULATION = [
  { id: "u-1", email: "ada@example.com", device: true, sessionsDaysAgo: [1, 2], attributes: { score: 12 } },
  { id: "u-2", email: "grace@example.com", device: true, sessionsDaysAgo: [1], attributes: { score: 3 } },
  { id: "u-3", email: "alan@example.com", device: true, sessionsDaysAgo: [10] },
  { id: "u-4", email: "edsger@example.com", device: true, sessionsDaysAgo: [] },
  { id: "u-5", email: "barbara@example.com", device: false, sessionsDaysAgo: [3] },
];

describe("Segments: build a rule, see who matches, copy a preset", () => {
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

  const preview = () => page.getByRole("region", { name: "Who matches" });
  const words = () => page.getByTestId("plain-words");

  it("starts empty, then counts a behaviour condition live with its plain words and a sample", async () => {
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await fillFirstAdminForm(page, herald.url);
    await page.getByRole("button", { name: "Create admin" }).click();
    await page.waitForURL(/\/broadcasts$/);

    const { key } = await mutate<{ key: string }>("apiKeys.create", { name: "Seeder", scope: "admin" });
    const now = Date.now();
    for (const user of POPULATION) {
      await api(key, "PUT", `/users/${user.id}`, { email: user.email, ...("attributes" in user ? { attributes: user.attributes } : {}) });
      if (user.device) await api(key, "POST", `/users/${user.id}/devices`, { token: `token-${user.id}`, platform: "ios" });
      for (const days of user.sessionsDaysAgo) {
        await api(key, "POST", `/users/${user.id}/activities`, { name: "session_completed", occurredAt: new Date(now - days * DAY_MS).toISOString() });
      }
    }

    await page.getByRole("link", { name: "Segments" }).click();
    await page.waitForURL(/\/segments$/);
    await expect.poll(() => page.getByText("No segments yet").isVisible(), EVENTUALLY).toBe(true);
    await screenshot(page, "60-segments-empty");

    await page.getByRole("link", { name: "New segment" }).first().click();
    await page.waitForURL(/\/segments\/new$/);
    // An empty rule is everyone.
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("5 users match");
    expect(await words().textContent()).toBe("everyone");

    await page.getByLabel("Name").fill("Recent sessions");
    await page.getByRole("button", { name: "Add condition to the whole rule" }).click();
    // A new condition is a behaviour: "did … at least 1 time in the last 7 days", waiting for its activity.
    expect(await page.getByLabel("Kind (condition 1)").inputValue()).toBe("activity");
    expect(await page.getByText("Choose an activity.").isVisible()).toBe(true);
    await page.getByLabel("Activity (condition 1)").fill("session_completed");
    expect(await page.getByLabel("Operator (condition 1)").inputValue()).toBe("did");
    expect(await page.getByLabel("Times (condition 1)").inputValue()).toBe("1");
    expect(await page.getByLabel("Days (condition 1)").inputValue()).toBe("7");

    await expect.poll(() => words().textContent(), EVENTUALLY).toBe("did session_completed at least once in the last 7 days");
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("3 users match");
    const sample = page.getByRole("table", { name: "Sample of matching users" });
    await expect.poll(async () => (await sample.locator("tbody tr").allTextContents()).map((row) => row.slice(0, 3)).sort(), EVENTUALLY).toEqual(["u-1", "u-2", "u-5"]);
    await screenshot(page, "61-segment-behaviour-count");

    // Twice in the last 7 days: only u-1.
    await page.getByLabel("Times (condition 1)").fill("2");
    await expect.poll(() => words().textContent(), EVENTUALLY).toBe("did session_completed at least 2 times in the last 7 days");
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("1 user matches");
    await page.getByLabel("Times (condition 1)").fill("1");

    // And reachable by push: a second condition in the same "all of" group.
    await page.getByRole("button", { name: "Add condition to the whole rule" }).click();
    await page.getByLabel("Kind (condition 2)").selectOption("has_active_device");
    await expect.poll(() => words().textContent(), EVENTUALLY).toBe("did session_completed at least once in the last 7 days, and has an active device");
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("2 users match");

    await page.getByRole("button", { name: "Save segment" }).click();
    await page.waitForURL(/\/segments\/\d+$/, EVENTUALLY);
    await expect.poll(() => page.getByRole("heading", { name: "Recent sessions" }).isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByText("Saved", { exact: true }).isVisible()).toBe(true);
    await screenshot(page, "62-segment-saved");
  });

  it("negates a group of alternatives", async () => {
    // Not (u-1 or u-3's address): the recent, reachable users other than u-1.
    await page.getByRole("button", { name: "Add group to the whole rule" }).click();
    await page.getByLabel("Kind (condition 3)").selectOption("profile");
    await page.getByLabel("Profile field (condition 3)").selectOption("email");
    await page.getByLabel("Operator (condition 3)").selectOption("eq");
    await page.getByLabel("Value (condition 3)").fill("ada@example.com");
    await page.getByLabel("Negate group 2").check();
    await expect.poll(() => words().textContent(), EVENTUALLY).toBe(
      'did session_completed at least once in the last 7 days, and has an active device, and not (email is "ada@example.com")',
    );
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("1 user matches");
    expect(await page.getByText("Unsaved changes").isVisible()).toBe(true);
    await screenshot(page, "63-segment-negated-group");
    await page.getByRole("button", { name: "Save segment" }).click();
    await expect.poll(() => page.getByText("Saved", { exact: true }).isVisible(), EVENTUALLY).toBe(true);
  });

  it("copies a preset into a new segment and saves it", async () => {
    await page.getByRole("link", { name: "← Segments" }).click();
    await page.waitForURL(/\/segments$/);
    const row = page.getByRole("row", { name: /Recent sessions/ });
    await expect.poll(() => row.textContent(), EVENTUALLY).toContain("by Ada Admin");

    await page.getByRole("link", { name: "New segment" }).click();
    await page.getByRole("button", { name: "Copy from preset" }).click();
    const dialog = page.getByRole("dialog", { name: "Copy from a preset" });
    await expect.poll(() => dialog.textContent(), EVENTUALLY).toContain("Inactive 7 days");
    await screenshot(page, "64-segment-presets");
    await dialog.getByRole("button", { name: "Copy “Inactive 7 days”" }).click();

    expect(await page.getByLabel("Name").inputValue()).toBe("Inactive 7 days");
    await expect.poll(() => words().textContent(), EVENTUALLY).toBe(
      "has an active device, and did session_completed at least once, but not in the last 7 days",
    );
    // Only u-3 had a session, but none in the last week.
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("1 user matches");
    expect(await page.getByRole("table", { name: "Sample of matching users" }).locator("tbody").textContent()).toContain("u-3");
    // The preset is an ordinary rule: its rows are editable like any other.
    expect(await page.getByLabel("Activity (condition 2)").inputValue()).toBe("session_completed");
    await screenshot(page, "65-segment-from-preset");

    await page.getByRole("button", { name: "Save segment" }).click();
    await page.waitForURL(/\/segments\/\d+$/, EVENTUALLY);
    await page.getByRole("link", { name: "← Segments" }).click();
    await expect.poll(() => page.getByRole("row").count(), EVENTUALLY).toBe(3);
    await screenshot(page, "66-segments-list");
  });

  it("types an attribute's value from what the data holds", async () => {
    await page.getByRole("link", { name: "New segment" }).click();
    await page.getByRole("button", { name: "Add condition to the whole rule" }).click();
    await page.getByLabel("Kind (condition 1)").selectOption("attribute");
    // score holds numbers in the data: the value is read as a number, not the text "5".
    await page.getByLabel("Attribute (condition 1)").fill("score");
    await expect.poll(() => page.getByLabel("Value type (condition 1)").inputValue(), EVENTUALLY).toBe("number");
    await page.getByLabel("Operator (condition 1)").selectOption("gt");
    await page.getByLabel("Value (condition 1)").fill("5");
    await expect.poll(() => words().textContent(), EVENTUALLY).toBe("score is more than 5");
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("1 user matches");
    // A value that is not a number is caught before the server is asked.
    await page.getByLabel("Value (condition 1)").fill("");
    expect(await page.getByText("Enter a number, e.g. 42 or 3.5.").isVisible()).toBe(true);
    expect(await page.getByText("Finish the highlighted conditions to count who matches.").isVisible()).toBe(true);
    await screenshot(page, "67-segment-attribute");
  });

  it("picks another segment by searching its name, and names it in the plain words", async () => {
    await page.getByLabel("Kind (condition 1)").selectOption("segment");
    const picker = page.getByRole("combobox", { name: "Segment (condition 1)" });
    await picker.fill("RECENT");
    await expect.poll(() => page.getByRole("listbox", { name: "Segment (condition 1)" }).getByRole("option").count(), EVENTUALLY).toBe(1);
    await screenshot(page, "68-segment-condition-picker");
    await page.getByRole("option", { name: /Recent sessions/ }).click();
    await expect.poll(() => words().textContent(), EVENTUALLY).toBe('is in segment "Recent sessions"');
    // Closed, the box shows the choice.
    expect(await picker.getAttribute("placeholder")).toBe("Recent sessions");
    // Its members are Recent sessions' own, as saved with the negated group.
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("1 user matches");
  });

  it("matches any of a date picked from the calendar input and a list of values", async () => {
    const { key } = await mutate<{ key: string }>("apiKeys.create", { name: "Renewals", scope: "admin" });
    await api(key, "PUT", "/users/u-2", { attributes: { renews_on: "2027-01-15" } });
    await api(key, "PUT", "/users/u-3", { attributes: { renews_on: "2026-06-01" } });
    await api(key, "PUT", "/users/u-4", { attributes: { plan: "team" } });
    await api(key, "PUT", "/users/u-5", { attributes: { plan: "enterprise" } });
    await page.goto(`${herald.url}/segments/new`);
    await page.getByLabel("Match all or any (the whole rule)").selectOption("or");

    await page.getByRole("button", { name: "Add condition to the whole rule" }).click();
    await page.getByLabel("Kind (condition 1)").selectOption("attribute");
    await page.getByLabel("Attribute (condition 1)").fill("renews_on");
    await page.getByLabel("Operator (condition 1)").selectOption("after");
    await page.getByLabel("Date kind (condition 1)").selectOption("date");
    await page.getByLabel("Date (condition 1)").fill("2026-12-31");

    await page.getByRole("button", { name: "Add condition to the whole rule" }).click();
    await page.getByLabel("Kind (condition 2)").selectOption("attribute");
    await page.getByLabel("Attribute (condition 2)").fill("plan");
    await page.getByLabel("Operator (condition 2)").selectOption("in");
    await page.getByLabel("Values, separated by commas (condition 2)").fill("team, enterprise");

    // u-2 renews after the date (u-3 before it); u-4 and u-5 are on one of the plans.
    await expect.poll(() => words().textContent(), EVENTUALLY).toMatch(/^renews_on is after .*2026.*, or plan is one of "team", "enterprise"$/);
    await expect.poll(() => preview().textContent(), EVENTUALLY).toContain("3 users match");
    const sample = page.getByRole("table", { name: "Sample of matching users" });
    await expect.poll(async () => (await sample.locator("tbody tr").allTextContents()).map((row) => row.slice(0, 3)).sort(), EVENTUALLY).toEqual(["u-2", "u-4", "u-5"]);
    await screenshot(page, "69-segment-date-and-list");
  });
});
