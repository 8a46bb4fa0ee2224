import { describe, expect, it } from "vitest";
import { AttributesSchema, E164Schema, ExternalIdSchema, LocaleSchema, PreferenceInputSchema, QuietHoursInputSchema } from "../src/config/audience.ts";

const message = (result: { error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe("E164Schema", () => {
  it("accepts international numbers", () => {
    expect(E164Schema.safeParse("+4915112345678").success).toBe(true);
    expect(E164Schema.safeParse("+15005550006").success).toBe(true);
  });

  it.each(["015112345678", "+0151123456", "+49 151 1234567", "+1234567890123456", "+12345"])("rejects %s", (phone) => {
    expect(message(E164Schema.safeParse(phone))).toBe("must be an E.164 phone number such as +4915112345678");
  });
});

describe("LocaleSchema", () => {
  it("canonicalises the tag", () => {
    expect(LocaleSchema.parse("en-us")).toBe("en-US");
    expect(LocaleSchema.parse("pt-BR")).toBe("pt-BR");
  });

  it("rejects what is not a language tag, naming it", () => {
    expect(message(LocaleSchema.safeParse("english please"))).toBe('"english please" is not a BCP 47 language tag such as "en" or "pt-BR"');
    expect(message(LocaleSchema.safeParse("x".repeat(36)))).toBe("must be at most 35 characters");
  });
});

describe("ExternalIdSchema", () => {
  it("keeps the id exactly, spaces included", () => {
    expect(ExternalIdSchema.parse(" user 17 ")).toBe(" user 17 ");
  });

  it("rejects control characters, empty and over-long ids", () => {
    expect(message(ExternalIdSchema.safeParse("user\u000017"))).toBe("must not contain control characters or line breaks");
    expect(message(ExternalIdSchema.safeParse(""))).toBe("must not be empty");
    expect(message(ExternalIdSchema.safeParse("x".repeat(257)))).toBe("must be at most 256 characters");
  });
});

describe("AttributesSchema", () => {
  it("accepts strings, numbers, booleans, null and lists of strings", () => {
    const attributes = { plan: "pro", seats: 12, trial: false, nickname: null, tags: ["beta", "eu"], "address.city": "Berlin", bio: "line one\n\tline two" };
    expect(AttributesSchema.parse(attributes)).toEqual(attributes);
  });

  it.each([
    ["a name with a space", { "first name": "Ada" }, 'attribute name "first name" must start with a letter or "_" and use only letters, digits, "_" and "." (at most 64 characters)'],
    ["a name starting with a digit", { "1st": "x" }, 'attribute name "1st" must start with a letter or "_" and use only letters, digits, "_" and "." (at most 64 characters)'],
    ["__proto__", JSON.parse('{"__proto__": "x"}'), 'attribute name "__proto__" must start with a letter or "_" and use only letters, digits, "_" and "." (at most 64 characters)'],
    ["a nested object", { address: { city: "Berlin" } }, 'attribute "address" must be a string, number, boolean, null or a list of strings'],
    ["a list of numbers", { scores: [1, 2] }, 'attribute "scores" must be a list of strings only'],
    ["a long string", { bio: "x".repeat(2001) }, 'attribute "bio" must be at most 2000 characters'],
    ["a carriage return", { bio: "a\rb" }, 'attribute "bio" must not contain control characters other than line breaks and tabs'],
    ["a NUL inside a list", { tags: ["ok", "b\u0000d"] }, 'attribute "tags" must not contain control characters other than line breaks and tabs'],
    ["an array", ["a"], "must be a JSON object of attributes"],
    ["a string", "plan=pro", "must be a JSON object of attributes"],
  ])("rejects %s", (_label, input, text) => {
    expect(message(AttributesSchema.safeParse(input))).toBe(text);
  });

  it("rejects more than 100 attributes", () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`a${i}`, i]));
    expect(message(AttributesSchema.safeParse(many))).toBe("must have at most 100 attributes, got 101");
  });

  it("points at the bad attribute", () => {
    expect(AttributesSchema.safeParse({ ok: 1, bad: {} }).error?.issues[0]?.path).toEqual(["bad"]);
  });
});

describe("QuietHoursInputSchema", () => {
  it("accepts a window with overrides, and null to clear quiet hours", () => {
    const input = { start: "22:00", end: "07:00", timezone: "Europe/Berlin", overrides: [{ category: "security", channel: "push", start: "02:00", end: "03:00" }] };
    expect(QuietHoursInputSchema.parse(input)).toEqual(input);
    expect(QuietHoursInputSchema.parse(null)).toBeNull();
  });

  it("rejects a window of no length, an hour 24 and an unknown zone", () => {
    expect(message(QuietHoursInputSchema.safeParse({ start: "08:00", end: "08:00" }))).toBe('start and end are both "08:00": a quiet window must have a length');
    expect(message(QuietHoursInputSchema.safeParse({ start: "22:00", end: "24:00" }))).toBe(
      '"24:00" is not a clock time: use HH:MM from 00:00 to 23:59, such as "22:00"',
    );
    expect(message(QuietHoursInputSchema.safeParse({ start: "22:00", end: "07:00", timezone: "Berlin" }))).toBe(
      '"Berlin" is not an IANA time zone such as "Europe/Berlin"',
    );
  });

  it("rejects the same category and channel overridden twice", () => {
    const override = { category: "marketing", channel: "sms", start: "20:00", end: "09:00" };
    expect(message(QuietHoursInputSchema.safeParse({ start: "22:00", end: "07:00", overrides: [override, override] }))).toBe(
      'category "marketing" on sms is listed twice',
    );
  });
});

describe("PreferenceInputSchema", () => {
  it("accepts a batch of choices", () => {
    expect(PreferenceInputSchema.safeParse({ preferences: [{ category: "marketing", channel: "email", enabled: false }] }).success).toBe(true);
  });

  it("rejects an empty batch, a duplicate and an unknown channel", () => {
    expect(message(PreferenceInputSchema.safeParse({ preferences: [] }))).toBe("must list at least one preference");
    const choice = { category: "marketing", channel: "email", enabled: false };
    expect(message(PreferenceInputSchema.safeParse({ preferences: [choice, { ...choice, enabled: true }] }))).toBe(
      'category "marketing" on email is listed twice',
    );
    expect(message(PreferenceInputSchema.safeParse({ preferences: [{ ...choice, channel: "fax" }] }))).toBe('"fax" is not a channel: use push, email or sms');
  });

  it("rejects more than 200 choices", () => {
    const preferences = Array.from({ length: 201 }, (_, i) => ({ category: `c${i}`, channel: "push", enabled: true }));
    expect(message(PreferenceInputSchema.safeParse({ preferences }))).toBe("must list at most 200 preferences");
  });
});
