import { describe, expect, it } from "vitest";
import {
  EmailContentSchema,
  LocaleContentSchema,
  MAX_EMAIL_HTML_BYTES,
  PushContentSchema,
  SmsContentSchema,
  TemplateBodySchema,
  TemplateContentSchema,
  TemplateMetaSchema,
} from "../../src/templates/template-content.ts";
import { TemplateVariableSchema, TemplateVariablesSchema } from "../../src/templates/template-variables.ts";

const firstMessage = (result: { error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;
const EMAIL = { subject: "Order {{ data.order_id }} paid", html: "<p>Hi {{ user.first_name }}</p>" };

describe("TemplateVariableSchema", () => {
  it("accepts a declared variable with an example of its type", () => {
    expect(TemplateVariableSchema.parse({ name: "data.order.total", type: "number", required: true, example: 42.5 })).toEqual({
      name: "data.order.total",
      type: "number",
      required: true,
      example: 42.5,
    });
  });

  it.each([
    ["string", "Ada"],
    ["url", "https://example.com/o/1"],
    ["number", 0],
    ["boolean", false],
    ["date", "2026-03-01"],
    ["date", "2026-03-01T09:30:00Z"],
    ["date", "2026-03-01T09:30:00+02:00"],
    ["list", [1, 2]],
    ["object", { a: 1 }],
  ])("accepts a %s example %j", (type, example) => {
    expect(TemplateVariableSchema.safeParse({ name: "data.x", type, required: false, example }).success).toBe(true);
  });

  it.each([
    ["string", 5, "the example of data.x must be a string"],
    ["url", "ftp://example.com", "the example of data.x must be an absolute http(s) URL"],
    ["url", "/relative", "the example of data.x must be an absolute http(s) URL"],
    ["number", "5", "the example of data.x must be a finite number"],
    ["number", Number.NaN, "the example of data.x must be a finite number"],
    ["boolean", "true", "the example of data.x must be true or false"],
    ["date", "March 1st", 'the example of data.x must be an ISO 8601 date or date-time such as "2026-03-01" or "2026-03-01T09:30:00Z"'],
    ["list", { 0: "a" }, "the example of data.x must be an array"],
    ["object", [1], "the example of data.x must be an object"],
    ["object", null, "the example of data.x must be an object"],
  ])("refuses a %s example %j", (type, example, message) => {
    expect(firstMessage(TemplateVariableSchema.safeParse({ name: "data.x", type, required: false, example }))).toBe(message);
  });

  it.each(["order_id", "event.order_id", "data", "data.a.b.c.d.e", "data.1st", "data.a-b"])("refuses the name %s", (name) => {
    expect(firstMessage(TemplateVariableSchema.safeParse({ name, type: "string", required: false }))).toMatch(/is not a variable name/);
  });
});

describe("TemplateVariablesSchema", () => {
  it("refuses a name declared twice", () => {
    const twice = [
      { name: "data.a", type: "string", required: false },
      { name: "data.a", type: "number", required: false },
    ];
    expect(firstMessage(TemplateVariablesSchema.safeParse(twice))).toBe("variable data.a is declared twice");
  });

  it("refuses children under a variable that is not an object", () => {
    const nested = [
      { name: "data.order", type: "string", required: false },
      { name: "data.order.total", type: "number", required: false },
    ];
    expect(firstMessage(TemplateVariablesSchema.safeParse(nested))).toBe(
      "data.order.total is declared inside data.order, which is a string: only an object can have declared children",
    );
  });

  it("refuses more than 100 variables", () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `data.v${i}`, type: "string", required: false }));
    expect(firstMessage(TemplateVariablesSchema.safeParse(many))).toBe("must declare at most 100 variables");
  });
});

describe("channel content schemas", () => {
  it.each([
    ["a subject with a line break", EmailContentSchema, { ...EMAIL, subject: "Hi\r\nBcc: x@y.z" }, "must be one line without control characters"],
    ["a subject over 998 characters", EmailContentSchema, { ...EMAIL, subject: "s".repeat(999) }, "must be at most 998 characters"],
    ["a preheader over 500 characters", EmailContentSchema, { ...EMAIL, preheader: "p".repeat(501) }, "must be at most 500 characters"],
    ["html over 512 KiB", EmailContentSchema, { ...EMAIL, html: "é".repeat(MAX_EMAIL_HTML_BYTES / 2 + 1) }, "must be at most 512 KiB (524288 bytes) of UTF-8"],
    ["text over 256 KiB", EmailContentSchema, { ...EMAIL, text: "t".repeat(256 * 1024 + 1) }, "must be at most 256 KiB (262144 bytes) of UTF-8"],
    ["an unknown email field", EmailContentSchema, { ...EMAIL, bcc: "x@y.z" }, 'Unrecognized key: "bcc"'],
    ["a push title over 300 characters", PushContentSchema, { title: "t".repeat(301), body: "b" }, "must be at most 300 characters"],
    ["a push body over 4000 characters", PushContentSchema, { title: "t", body: "b".repeat(4001) }, "must be at most 4000 characters"],
    ["an http image", PushContentSchema, { title: "t", body: "b", imageUrl: "http://cdn.example.com/a.png" }, "must be an https URL, or Liquid that renders one"],
    ["an image URL over 2048 characters", PushContentSchema, { title: "t", body: "b", imageUrl: `https://x.test/${"a".repeat(2040)}` }, "must be at most 2048 characters"],
    ["a javascript: deep link", PushContentSchema, { title: "t", body: "b", deepLink: "JavaScript:alert(1)" }, "must not be a javascript:, vbscript: or data: link"],
    ["a reserved data key", PushContentSchema, { title: "t", body: "b", data: { notification_id: "x" } }, '"notification_id" is reserved by Herald or FCM: choose another data key'],
    ["a google-prefixed data key", PushContentSchema, { title: "t", body: "b", data: { google_sent: "x" } }, '"google_sent" is reserved by Herald or FCM: choose another data key'],
    ["a data key with a dot", PushContentSchema, { title: "t", body: "b", data: { "a.b": "x" } }, '"a.b" is not a data key: use a letter or "_", then up to 63 letters, digits or "_"'],
    ["more than 20 data keys", PushContentSchema, { title: "t", body: "b", data: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])) }, "must have at most 20 keys, not 21"],
    ["an SMS over 1600 characters", SmsContentSchema, { body: "s".repeat(1601) }, "must be at most 1600 characters"],
    ["a locale with no channel", LocaleContentSchema, {}, "must have content for at least one channel: push, email or sms"],
  ])("refuses %s", (_label, schema, content, message) => {
    expect(firstMessage(schema.safeParse(content))).toBe(message);
  });

  it("measures html in UTF-8 bytes: 262,144 two-byte characters fit in 512 KiB", () => {
    expect(EmailContentSchema.safeParse({ ...EMAIL, html: "é".repeat(MAX_EMAIL_HTML_BYTES / 2) }).success).toBe(true);
  });

  it("accepts an image URL made by Liquid, and an app deep link", () => {
    const push = { title: "t", body: "b", imageUrl: "{{ data.image_url }}", deepLink: "myapp://orders/{{ data.order_id }}", data: { order_id: "{{ data.order_id }}" } };
    expect(PushContentSchema.parse(push)).toEqual(push);
  });
});

describe("TemplateContentSchema", () => {
  it("canonicalises locale keys", () => {
    expect(Object.keys(TemplateContentSchema.parse({ pt_BR: { email: EMAIL }, EN: { sms: { body: "hi" } } }))).toEqual(["pt-BR", "en"]);
  });

  it("names an unknown locale key", () => {
    const result = TemplateContentSchema.safeParse({ en: { email: EMAIL }, "xx-ZZ": { email: EMAIL } });
    expect(result.error?.issues[0]).toMatchObject({
      path: ["xx-ZZ"],
      message: '"xx-ZZ" is not a known locale tag: use a BCP 47 tag such as "en" or "pt-BR"',
    });
  });

  it("refuses two keys that are the same locale", () => {
    expect(firstMessage(TemplateContentSchema.safeParse({ "pt-BR": { email: EMAIL }, pt_br: { email: EMAIL } }))).toBe(
      '"pt_br" and "pt-BR" are the same locale, pt-BR: keep one',
    );
  });

  it("refuses more than 50 locales", () => {
    const locales = ["af", "am", "ar", "az", "be", "bg", "bn", "bs", "ca", "cs", "cy", "da", "de", "el", "en", "es", "et", "eu", "fa", "fi", "fr", "ga", "gl", "gu", "he", "hi", "hr", "hu", "hy", "id", "is", "it", "ja", "ka", "kk", "km", "kn", "ko", "ky", "lo", "lt", "lv", "mk", "ml", "mn", "mr", "ms", "my", "nb", "ne", "nl"];
    expect(locales).toHaveLength(51);
    const content = Object.fromEntries(locales.map((locale) => [locale, { sms: { body: "hi" } }]));
    expect(firstMessage(TemplateContentSchema.safeParse(content))).toBe("must have at most 50 locales, not 51");
  });
});

describe("TemplateBodySchema and TemplateMetaSchema", () => {
  it("parses a body with variables and content", () => {
    const body = TemplateBodySchema.parse({
      variables: [{ name: "data.order_id", type: "string", required: true, example: "A-1" }],
      content: { en: { email: EMAIL } },
    });
    expect(body.content.en?.email?.subject).toBe("Order {{ data.order_id }} paid");
  });

  it("parses template settings, canonicalising the default locale", () => {
    expect(TemplateMetaSchema.parse({ key: "order.paid", name: " Order paid ", channels: ["email", "push"], defaultCategory: null, defaultLocale: "en_GB" })).toEqual({
      key: "order.paid",
      name: "Order paid",
      channels: ["email", "push"],
      defaultCategory: null,
      defaultLocale: "en-GB",
    });
  });

  it.each([
    ["a repeated channel", { channels: ["email", "email"] }, 'channel "email" is listed twice'],
    ["no channel", { channels: [] }, "must list at least one channel"],
    ["a two-line name", { name: "a\nb" }, "must not contain control characters or line breaks"],
  ])("refuses %s", (_label, change, message) => {
    const meta = { key: "order.paid", name: "Order paid", channels: ["email"], defaultCategory: "billing", defaultLocale: "en", ...change };
    expect(firstMessage(TemplateMetaSchema.safeParse(meta))).toBe(message);
  });
});
