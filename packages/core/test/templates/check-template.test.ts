import { describe, expect, it } from "vitest";
import { checkTemplate, exampleScope } from "../../src/templates/check-template.ts";
import { TemplateBodySchema } from "../../src/templates/template-content.ts";

const META = { channels: ["email", "sms"] as ("email" | "sms" | "push")[], defaultLocale: "en" };
const body = (input: unknown) => TemplateBodySchema.parse(input);

const PUBLISHABLE = body({
  variables: [
    { name: "data.order", type: "object", required: true, example: { id: "A-1", total: 42.5 } },
    { name: "data.items", type: "list", required: false, example: [{ name: "Tea" }] },
    { name: "user.first_name", type: "string", required: false },
  ],
  content: {
    en: {
      email: {
        subject: "Order {{ data.order.id }}",
        html: "<p>Hi {{ user.first_name | default: user.email }}</p>{% for item in data.items %}<li>{{ item.name }}</li>{% endfor %}{% assign n = data.items.size %}{{ n }}",
      },
      sms: { body: "Order {{ data.order.id }}: {{ data.order.total }} ({{ user.id }})" },
    },
    "pt-BR": { sms: { body: "Pedido {{ data.order.id }}" } },
  },
});

describe("checkTemplate", () => {
  it("finds nothing wrong with a publishable template: object sub-paths, loop locals, assigns and built-ins are fine", () => {
    expect(checkTemplate({ meta: META, body: PUBLISHABLE })).toEqual([]);
  });

  it("saves a half-written draft, and refuses to publish it while a required field is empty", () => {
    const draft = body({ variables: [], content: { en: { email: { subject: "Hello", html: "  " }, sms: { body: "" } } } });
    expect(checkTemplate({ meta: META, body: draft }).map((p) => [p.code, p.channel, p.field])).toEqual([
      ["missing_content", "email", "html"],
      ["missing_content", "sms", "body"],
    ]);
  });

  it("reports syntax errors with locale, channel, field, line and column", () => {
    const broken = body({ variables: [], content: { en: { email: { subject: "Hi", html: "<p>\n{% if %}</p>" }, sms: { body: "ok" } } } });
    expect(checkTemplate({ meta: META, body: broken })).toEqual([
      {
        code: "syntax",
        locale: "en",
        channel: "email",
        field: "html",
        line: 2,
        column: 6,
        message: 'email html (en), line 2, column 6: invalid value expression: ""',
      },
    ]);
  });

  it("reports variables used but not declared, including a parent of a declared path", () => {
    const undeclared = body({
      variables: [{ name: "data.order.total", type: "number", required: false, example: 1 }],
      content: { en: { email: { subject: "{{ data.order }}", html: "<p>{{ data.order.total }} {{ data.coupon }} {{ user.nickname }}</p>" }, sms: { body: "x" } } },
    });
    expect(checkTemplate({ meta: META, body: undeclared }).map((p) => [p.code, p.field, p.variable])).toEqual([
      ["unknown_variable", "subject", "data.order"],
      ["unknown_variable", "html", "data.coupon"],
      ["unknown_variable", "html", "user.nickname"],
    ]);
  });

  it("requires content in the default locale for each channel, and refuses content for other channels", () => {
    const lopsided = body({ variables: [], content: { en: { email: { subject: "s", html: "<p>h</p>" } }, de: { sms: { body: "x" }, push: { title: "t", body: "b" } } } });
    expect(checkTemplate({ meta: META, body: lopsided })).toEqual([
      { code: "channel_not_supported", channel: "push", locale: "de", message: "de has push content, but the template does not send push: remove it or add the channel" },
      { code: "missing_content", channel: "sms", locale: "en", message: "the template sends sms but has no sms content in its default locale, en" },
    ]);
  });

  it("asks for an example of each required variable", () => {
    const noExample = body({ variables: [{ name: "data.code", type: "string", required: true }], content: { en: { sms: { body: "Code {{ data.code }}" }, email: { subject: "s", html: "h" } } } });
    expect(checkTemplate({ meta: META, body: noExample })).toEqual([
      { code: "bad_example", variable: "data.code", message: "required variable data.code needs an example, so previews and the publish check can render" },
    ]);
  });

  it("renders every locale with the examples and reports what fails", () => {
    const tooLong = body({
      variables: [{ name: "data.code", type: "string", required: true, example: "ж".repeat(700) }],
      content: { en: { sms: { body: "{{ data.code }}" }, email: { subject: "Code {{ data.code | slice: 0, 3 }}", html: "{{ data.code }}" } } },
    });
    expect(checkTemplate({ meta: META, body: tooLong })).toEqual([
      { code: "too_large", locale: "en", channel: "sms", field: "body", message: "sms body (en): renders to 11 UCS-2 segments; an SMS may be at most 10" },
    ]);
  });

  it("reports a runtime error found with the examples", () => {
    const badFilter = body({ variables: [], content: { en: { sms: { body: "{{ 'now' | date: '%Y' }}" }, email: { subject: "s", html: "h" } } } });
    expect(checkTemplate({ meta: META, body: badFilter })).toMatchObject([{ code: "render_error", locale: "en", channel: "sms", field: "body" }]);
  });
});

describe("exampleScope", () => {
  it("nests examples by path, fills types without examples and adds the built-in user fields", () => {
    expect(
      exampleScope([
        { name: "data.order.total", type: "number", required: false, example: 9.5 },
        { name: "data.order", type: "object", required: false, example: { id: "A-1" } },
        { name: "data.paid_on", type: "date", required: false },
        { name: "data.receipt", type: "url", required: false },
        { name: "data.first_time", type: "boolean", required: false },
        { name: "data.lines", type: "list", required: false },
        { name: "user.first_name", type: "string", required: false },
      ]),
    ).toEqual({
      user: { id: "user_123", email: "ada@example.com", phone: "+14155550123", locale: "en", first_name: "first name" },
      data: { order: { id: "A-1", total: 9.5 }, paid_on: "2026-01-15T09:30:00Z", receipt: "https://example.com/", first_time: true, lines: [] },
    });
  });

  it("does not share example objects between scopes", () => {
    const variables = [{ name: "data.order", type: "object" as const, required: false, example: { id: "A-1" } }, { name: "data.order.total", type: "number" as const, required: false, example: 1 }];
    exampleScope(variables);
    expect(variables[0]?.example).toEqual({ id: "A-1" });
  });
});
