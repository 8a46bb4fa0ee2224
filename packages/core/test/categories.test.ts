import { describe, expect, it } from "vitest";
import { CategoryInputSchema, CategoryKeySchema } from "../src/config/categories.ts";

const MARKETING = {
  label: "Marketing",
  defaults: { push: false, email: true, sms: false },
  aliases: ["promo", "promotions"],
  tracking: { opens: true, clicks: true },
  frequencyCap: { max: 3, windowSeconds: 86_400, action: "skip" },
};

function firstIssue(input: unknown) {
  return CategoryInputSchema.safeParse(input).error?.issues[0];
}

describe("CategoryKeySchema", () => {
  it("accepts lower-case keys with _ . -", () => {
    for (const key of ["marketing", "billing.receipts", "a", "order_updates-v2"]) expect(CategoryKeySchema.safeParse(key).success).toBe(true);
  });

  it.each(["Marketing", "1st", "", "has space", "x".repeat(65)])("rejects %j, naming it", (key) => {
    expect(CategoryKeySchema.safeParse(key).error?.issues[0]?.message).toBe(
      `${JSON.stringify(key)} is not a category key: start with a lower-case letter, then up to 63 lower-case letters, digits, "_", "." or "-"`,
    );
  });
});

describe("CategoryInputSchema", () => {
  it("accepts a full category and a bare one", () => {
    expect(CategoryInputSchema.parse(MARKETING)).toEqual(MARKETING);
    expect(CategoryInputSchema.parse({ label: "  Security ", mandatory: true })).toEqual({ label: "Security", mandatory: true });
  });

  it("accepts null to remove the frequency cap", () => {
    expect(CategoryInputSchema.parse({ label: "News", frequencyCap: null }).frequencyCap).toBeNull();
  });

  it("rejects a duplicate alias, naming it", () => {
    const issue = firstIssue({ ...MARKETING, aliases: ["promo", "deals", "promo"] });
    expect(issue?.message).toBe('alias "promo" is listed twice');
    expect(issue?.path).toEqual(["aliases", 2]);
  });

  it("rejects more than 20 aliases", () => {
    expect(firstIssue({ label: "x", aliases: Array.from({ length: 21 }, (_, i) => `alias${i}`) })?.message).toBe("must have at most 20 aliases");
  });

  it.each([
    ["max of 0", { max: 0, windowSeconds: 3600, action: "skip" }, "must be at least 1"],
    ["max above 10,000", { max: 10_001, windowSeconds: 3600, action: "skip" }, "must be at most 10000"],
    ["a fractional max", { max: 1.5, windowSeconds: 3600, action: "skip" }, "must be a whole number"],
    ["a window under a minute", { max: 1, windowSeconds: 59, action: "skip" }, "must be at least 60 seconds"],
    ["a window over 30 days", { max: 1, windowSeconds: 2_592_001, action: "skip" }, "must be at most 2592000 seconds (30 days)"],
    ["an unknown action", { max: 1, windowSeconds: 3600, action: "drop" }, '"drop" is not a frequency cap action: use defer or skip'],
  ])("rejects a frequency cap with %s", (_label, frequencyCap, message) => {
    expect(firstIssue({ label: "x", frequencyCap })?.message).toBe(message);
  });

  it("rejects an empty label and a misspelt field", () => {
    expect(firstIssue({ label: " " })?.message).toBe("must not be empty");
    expect(firstIssue({ label: "x", mandatroy: true })?.message).toBe('Unrecognized key: "mandatroy"');
  });
});
