import fs from "node:fs";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { fillFirstAdminForm } from "./support/first-admin.ts";
import { ARTIFACTS, useHeraldServer } from "./support/herald-server.ts";
import { screenshot } from "./support/screenshot.ts";

const OPERATOR = { name: "Otto Operator", email: "otto@example.com", password: "otto's own long passphrase" };
// Sandbox identities (the Test identities card): a number Twilio rejects, an address SES accepts.
const INVALID_NUMBER = "+15005550001";
const ACCEPTED_EMAIL = "success@simulator.amazonses.com";
const EVENTUALLY = { timeout: 15_000 };

// The test server runs in development mode without HERALD_SECRET_KEY: every channel falls back to
// the sandbox, and the server refuses to store provider credentials.
describe("Settings → Providers without HERALD_SECRET_KEY, in development", () => {
  const herald = useHeraldServer();
  let browser: Browser;
  let admin: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The provider's answer shown in a Send test form: its outcome badge and each labelled value. */
  function answerIn(form: Locator): Promise<Record<string, string>> {
    return form.getByRole("status").evaluate((answer) => ({
      outcome: answer.querySelector(".badge")?.textContent ?? "",
      ...Object.fromEntries([...answer.querySelectorAll("dt")].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent ?? ""])),
    }));
  }

  it("warns about HERALD_SECRET_KEY, shows the refusal to store SES credentials, and sends tests through the sandbox", async () => {
    admin = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await fillFirstAdminForm(admin, herald.url);
    await admin.getByRole("button", { name: "Create admin" }).click();
    await admin.waitForURL(/\/broadcasts$/);

    await admin.getByRole("link", { name: "Settings" }).click();
    await admin.getByRole("link", { name: "Providers" }).click();
    await admin.waitForURL(/\/settings\/providers$/);
    const warning = admin.getByText("Set HERALD_SECRET_KEY to store provider credentials: they are encrypted with it at rest.");
    await expect.poll(() => warning.isVisible(), EVENTUALLY).toBe(true);
    const email = admin.getByRole("region", { name: "Email", exact: true });
    const sms = admin.getByRole("region", { name: "SMS", exact: true });
    const push = admin.getByRole("region", { name: "Push", exact: true });
    for (const card of [email, sms, push]) {
      expect(await card.textContent()).toContain("Sandbox (development)");
    }
    await screenshot(admin, "20-providers-sandbox");

    // SES for email: valid values, so the only refusal left is the missing HERALD_SECRET_KEY.
    await email.getByRole("button", { name: "Configure the primary Email provider" }).click();
    const sesForm = email.getByRole("form", { name: "Configure the primary Email provider" });
    expect(await sesForm.getByLabel("Provider", { exact: true }).inputValue()).toBe("ses");
    // Missing values are caught beside their fields before anything reaches the server.
    await sesForm.getByRole("button", { name: "Save the primary Email provider" }).click();
    await expect.poll(() => sesForm.textContent(), EVENTUALLY).toContain("Region is required.");
    expect(await sesForm.textContent()).toContain("Secret access key is required.");
    await email.getByLabel("Region").fill("eu-west-1");
    await email.getByLabel("From").fill("Acme <hello@acme.example>");
    await email.getByLabel("Access key id").fill("AKIAIOSFODNN7EXAMPLE");
    await email.getByLabel("Secret access key").fill("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    expect(await email.getByLabel("Secret access key").getAttribute("type")).toBe("password");
    await sesForm.getByRole("button", { name: "Save the primary Email provider" }).click();
    await expect.poll(() => sesForm.textContent(), EVENTUALLY).toContain(
      "Herald cannot store secrets until HERALD_SECRET_KEY is set: they are encrypted with it at rest",
    );
    await screenshot(admin, "21-ses-refused");
    await email.getByRole("button", { name: "Cancel" }).click();
    expect(await email.textContent()).toContain("Sandbox (development)");

    // SMS through the sandbox: the number Twilio rejects as invalid.
    await sms.getByRole("button", { name: "Send test SMS message" }).click();
    await sms.getByLabel("To", { exact: true }).fill(INVALID_NUMBER);
    await sms.getByRole("button", { name: "Send test SMS message" }).click();
    // Polling the whole form: if the call fails, the assertion shows the error it displays instead.
    const smsTest = sms.getByRole("form", { name: "Send a test SMS message" });
    await expect.poll(() => smsTest.textContent(), EVENTUALLY).toContain("Provider code");
    expect(await answerIn(smsTest)).toMatchObject({ outcome: "Dead", Provider: "sandbox-sms", "Provider code": "21211" });
    await screenshot(admin, "22-sms-test-dead");

    // Email through the sandbox: an address SES's simulator accepts.
    await email.getByRole("button", { name: "Send test Email message" }).click();
    await email.getByLabel("To", { exact: true }).fill(ACCEPTED_EMAIL);
    await email.getByRole("button", { name: "Send test Email message" }).click();
    const emailTest = email.getByRole("form", { name: "Send a test Email message" });
    await expect.poll(() => emailTest.textContent(), EVENTUALLY).toContain("Provider code");
    expect(await answerIn(emailTest)).toMatchObject({
      outcome: "Sent",
      Provider: "sandbox-email",
      "Message id": expect.stringMatching(/^sandbox-[0-9a-f-]{36}$/),
    });
    await screenshot(admin, "23-email-test-sent");
  });

  it("shows an operator the same providers, read-only", async () => {
    await admin.getByRole("link", { name: "Members" }).click();
    await admin.waitForURL(/\/settings\/members$/);
    // By role: until the Members page renders, "Email" also names the providers page's email card.
    await admin.getByRole("textbox", { name: "Email", exact: true }).fill(OPERATOR.email);
    await admin.getByLabel("Role").selectOption("operator");
    await admin.getByRole("button", { name: "Invite member" }).click();
    const link = admin.getByRole("textbox", { name: "Invite link" });
    await link.waitFor();
    const inviteUrl = await link.inputValue();
    await admin.close();

    const operator = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await operator.goto(inviteUrl);
    await expect.poll(() => operator.getByText(OPERATOR.email).first().isVisible(), EVENTUALLY).toBe(true);
    await operator.getByLabel("Name").fill(OPERATOR.name);
    await operator.getByLabel("Password", { exact: true }).fill(OPERATOR.password);
    await operator.getByRole("button", { name: "Accept invite" }).click();
    await operator.waitForURL(/\/broadcasts$/);

    // Settings opens on the first tab an operator may read (categories); Providers is among them.
    await operator.getByRole("link", { name: "Settings" }).click();
    await operator.getByRole("link", { name: "Providers", exact: true }).click();
    await operator.waitForURL(/\/settings\/providers$/);
    const email = operator.getByRole("region", { name: "Email", exact: true });
    await expect.poll(() => email.textContent(), EVENTUALLY).toContain("Sandbox (development)");
    expect(await operator.getByText("only an admin can change them or send tests").isVisible()).toBe(true);
    expect(await operator.getByRole("button", { name: /^(Configure|Edit|Remove|Send test)/ }).count()).toBe(0);
    await screenshot(operator, "24-providers-operator");

    const refused = await operator.evaluate(async () => {
      const response = await fetch("/trpc/providers.sendTest", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ channel: "sms", role: "primary", to: "+15005550006" }),
      });
      return response.status;
    });
    expect(refused).toBe(403);
    await operator.close();
  });
});
