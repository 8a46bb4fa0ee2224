import { describe, expect, it } from "vitest";
import { createRowChecker } from "../../src/imports/check-import-row.ts";
import { ImportMappingSchema, mappingProblem } from "../../src/imports/import-mapping.ts";

const NOW = new Date("2026-11-30T12:00:00Z");

const users = createRowChecker(
  ImportMappingSchema.parse({
    kind: "users",
    fields: { externalId: 0, email: 1, phone: 2, timezone: 3, locale: 4 },
    attributes: [
      { column: 5, name: "plan", type: "string" },
      { column: 6, name: "score", type: "number" },
      { column: 7, name: "vip", type: "boolean" },
      { column: 8, name: "signed_up", type: "date" },
    ],
  }),
  ["id", "email", "phone", "timezone", "locale", "plan", "score", "vip", "signed_up"],
  NOW,
);

describe("a users import row", () => {
  it("becomes a normalised user, empty cells left out", () => {
    expect(users([" u-1 ", "Ada@Example.COM", "+49 151 1234 5678", "europe/berlin", "pt-br", "pro", "12.5", "yes", "2026-11-30"])).toEqual({
      ok: true,
      record: {
        kind: "users",
        externalId: "u-1",
        email: "ada@example.com",
        phone: "+4915112345678",
        timezone: "Europe/Berlin",
        locale: "pt-BR",
        attributes: { plan: "pro", score: 12.5, vip: true, signed_up: "2026-11-30" },
      },
    });
    expect(users(["u-2", "", "", "", "", "", "", "", ""])).toEqual({
      ok: true,
      record: { kind: "users", externalId: "u-2", email: null, phone: null, timezone: null, locale: null, attributes: {} },
    });
    // A short row: the missing cells are empty. Empty cells past the header are nothing either.
    expect(users(["u-3"])).toMatchObject({ ok: true, record: { externalId: "u-3" } });
    expect(users(["u-4", "", "", "", "", "", "", "", "", " ", ""])).toMatchObject({ ok: true, record: { externalId: "u-4" } });
  });

  it.each([
    [["", "a@example.com"], "external id is empty"],
    [["u", "a@example.com", "", "", "", "Smith", " Jr.", "", "", "x"], "has 10 cells but the header names 9: a value that contains the delimiter must be quoted"],
    [["x".repeat(300)], "external id (300 characters): must be at most 256 characters"],
    [["u", "not-an-email"], 'email "not-an-email": must be an email address'],
    [["u", `${"a".repeat(320)}@example.com`], "email (332 characters): must be at most 320 characters"],
    [["u", "", "0151 1234"], 'phone "01511234": must be an E.164 phone number such as +4915112345678'],
    [["u", "", "", "Mars/Base"], 'timezone "Mars/Base": "Mars/Base" is not an IANA time zone such as "Europe/Berlin"'],
    [["u", "", "", "", "not a locale!"], 'locale "not a locale!": "not a locale!" is not a BCP 47 language tag such as "en" or "pt-BR"'],
    [["u", "", "", "", "", "p".repeat(2001)], 'attribute "plan" must be at most 2000 characters'],
    [["u", "", "", "", "", "", "12,5"], 'attribute "score" "12,5": is not a number such as 42 or -3.5'],
    [["u", "", "", "", "", "", "", "maybe"], 'attribute "vip" "maybe": is not true or false (also yes/no, 1/0)'],
    [["u", "", "", "", "", "", "", "", "2026-02-30"], 'attribute "signed_up" "2026-02-30": is not a date such as 2026-11-30 or 2026-11-30T09:00:00Z'],
  ])("%j is refused: %s", (cells, reason) => {
    expect(users(cells)).toEqual({ ok: false, reason });
  });
});

describe("a suppressions import row", () => {
  const fixed = createRowChecker({ kind: "suppressions", address: 0, channel: { fixed: "email" } }, ["address"], NOW);
  const byColumn = createRowChecker({ kind: "suppressions", address: 0, channel: { column: 1 } }, ["address", "channel"], NOW);

  it("is an address on its channel", () => {
    expect(fixed([" Gone@Example.com "])).toEqual({ ok: true, record: { kind: "suppressions", channel: "email", address: "gone@example.com" } });
    expect(byColumn(["+1 (415) 555-0100", "SMS"])).toEqual({ ok: true, record: { kind: "suppressions", channel: "sms", address: "+14155550100" } });
  });

  it("refuses a bad address or channel", () => {
    expect(fixed(["nope"])).toEqual({ ok: false, reason: 'email address "nope": must be an email address' });
    expect(byColumn(["x@example.com", "push"])).toEqual({ ok: false, reason: 'channel "push": must be email or sms' });
    expect(fixed([""])).toEqual({ ok: false, reason: "address is empty" });
  });
});

describe("an opt-outs import row", () => {
  const check = createRowChecker({ kind: "opt_outs", userId: 0, channel: { column: 1 }, category: { column: 2 } }, ["user", "channel", "category"], NOW);

  it("is a user, their channels and a category", () => {
    expect(check(["u-1", "all", "Marketing"])).toEqual({
      ok: true,
      record: { kind: "opt_outs", userId: "u-1", channels: ["push", "email", "sms"], category: "marketing" },
    });
    expect(check(["u-1", "EMAIL", "news"])).toMatchObject({ ok: true, record: { channels: ["email"] } });
  });

  it("refuses a bad channel or category", () => {
    expect(check(["u-1", "fax", "news"])).toEqual({ ok: false, reason: 'channel "fax": "fax" is not a channel: use push, email or sms (or all)' });
    expect(check(["u-1", "email", "no way"])).toMatchObject({ ok: false, reason: expect.stringContaining('category "no way": "no way" is not a category key') });
  });
});

describe("a mapping", () => {
  it("maps each column once, to one field, and names attributes as the API does", () => {
    const parsed = ImportMappingSchema.safeParse({
      kind: "users",
      fields: { externalId: 0, email: 0 },
      attributes: [
        { column: 1, name: "1st", type: "string" },
        { column: 2, name: "a", type: "text" },
      ],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual([
      expect.stringMatching(/^attributes\.0\.name: attribute name "1st" must start with a letter/),
      'attributes.1.type: "text" is not an attribute type: use string, number, boolean or date',
    ]);
    const twice = ImportMappingSchema.safeParse({ kind: "users", fields: { externalId: 0, email: 0 }, attributes: [] });
    expect(twice.error!.issues[0]).toMatchObject({ path: ["fields", "email"], message: "column 1 is already mapped to externalId" });
  });

  it("reads only columns the file has", () => {
    const mapping = ImportMappingSchema.parse({ kind: "opt_outs", userId: 0, channel: { fixed: "all" }, category: { column: 3 } });
    expect(mappingProblem(mapping, ["id", "a", "b", "category"])).toBeNull();
    expect(mappingProblem(mapping, ["id", "category"])).toBe("category.column: column 4 does not exist; the file has 2 columns");
  });
});
