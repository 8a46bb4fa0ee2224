import { describe, expect, it } from "vitest";
import { renderTemplate } from "../../src/templates/render-template.ts";
import { TemplateBodySchema, type TemplateBody } from "../../src/templates/template-content.ts";

const ORDER_PAID: TemplateBody = TemplateBodySchema.parse({
  variables: [
    { name: "data.order_id", type: "string", required: true, example: "A-1001" },
    { name: "data.note", type: "string", required: false },
    { name: "user.first_name", type: "string", required: false },
  ],
  content: {
    en: {
      email: {
        subject: "Order {{ data.order_id }} is paid",
        preheader: "Thanks, {{ user.first_name }}",
        html: "<!doctype html><html><head><title>Paid</title></head><body><p>Hi {{ user.first_name }}, note: {{ data.note }}</p><script>alert(1)</script></body></html>",
      },
      push: { title: "Paid: {{ data.order_id }}", body: "Note: {{ data.note }}", deepLink: "shop://orders/{{ data.order_id }}", data: { order: "{{ data.order_id }}" } },
      sms: { body: "Order {{ data.order_id }} paid. {{ data.note }}" },
    },
    pt: { email: { subject: "Pedido {{ data.order_id }} pago", html: "<p>Olá {{ user.first_name }}</p>", text: "Olá {{ user.first_name }}" } },
  },
});

const ADA = { user: { id: "u1", first_name: "Ada" }, data: { order_id: "A-1001", note: "<script>x</script> & {{ user.email }}" } };

describe("renderTemplate: email", () => {
  const result = renderTemplate({ body: ORDER_PAID, defaultLocale: "en", channel: "email", locale: "en-GB", scope: ADA });

  it("renders in the nearest locale with email content", () => {
    expect(result.ok && result.locale).toBe("en");
  });

  it("writes the subject plainly, with Liquid-looking data literal", () => {
    expect(result.ok && result.rendered.subject).toBe("Order A-1001 is paid");
  });

  it("escapes data in html, injects the preheader first in the body, and sanitizes", () => {
    expect(result.ok && result.rendered.html).toBe(
      '<!doctype html><html><head><title>Paid</title></head><body><div style="display:none;max-height:0;overflow:hidden;mso-hide:all">Thanks, Ada</div>' +
        "<p>Hi Ada, note: &lt;script&gt;x&lt;/script&gt; &amp; {{ user.email }}</p></body></html>",
    );
  });

  it("generates the text part from the html without the hidden preheader", () => {
    expect(result.ok && result.rendered.text).toBe("Hi Ada, note: <script>x</script> & {{ user.email }}");
    expect(result.ok && result.rendered.preheader).toBe("Thanks, Ada");
  });

  it("uses the authored text part when there is one", () => {
    const pt = renderTemplate({ body: ORDER_PAID, defaultLocale: "en", channel: "email", locale: "pt-BR", scope: ADA });
    expect(pt).toEqual({ ok: true, locale: "pt", rendered: { subject: "Pedido A-1001 pago", html: "<p>Olá Ada</p>", text: "Olá Ada" } });
  });

  it("refuses a subject that data would break onto a second header line", () => {
    const injected = renderTemplate({ body: ORDER_PAID, defaultLocale: "en", channel: "email", scope: { ...ADA, data: { order_id: "1\r\nBcc: all@example.com" } } });
    expect(injected).toEqual({
      ok: false,
      problem: {
        code: "header_injection",
        locale: "en",
        channel: "email",
        field: "subject",
        message: "email subject (en): renders with a line break or control character; header fields must stay on one line",
      },
    });
  });

  it("refuses a preheader with a control character from data", () => {
    const injected = renderTemplate({ body: ORDER_PAID, defaultLocale: "en", channel: "email", scope: { ...ADA, user: { first_name: "Ada\u0007" } } });
    expect(!injected.ok && injected.problem).toMatchObject({ code: "header_injection", field: "preheader" });
  });

  it("refuses rendered html over 512 KiB", () => {
    const body = TemplateBodySchema.parse({ variables: [], content: { en: { email: { subject: "Big", html: "<p>{{ data.blob }}</p>" } } } });
    const big = renderTemplate({ body, defaultLocale: "en", channel: "email", scope: { user: {}, data: { blob: "x".repeat(600 * 1024) } } });
    expect(!big.ok && big.problem).toMatchObject({
      code: "too_large",
      field: "html",
      message: "email html (en): renders to 614407 bytes; email html may be at most 512 KiB (524288 bytes)",
    });
  });
});

describe("renderTemplate: push", () => {
  it("renders every field plainly and measures the FCM payload", () => {
    const result = renderTemplate({ body: ORDER_PAID, defaultLocale: "en", channel: "push", locale: "en", scope: ADA });
    const title = "Paid: A-1001";
    const body = "Note: <script>x</script> & {{ user.email }}";
    const payload = { notification: { title, body }, data: { order: "A-1001", deep_link: "shop://orders/A-1001", notification_id: "n".repeat(20) } };
    expect(result).toEqual({
      ok: true,
      locale: "en",
      rendered: { title, body, deepLink: "shop://orders/A-1001", data: { order: "A-1001" }, payloadBytes: new TextEncoder().encode(JSON.stringify(payload)).length },
    });
  });

  it("refuses a payload over 4 KiB", () => {
    const result = renderTemplate({ body: ORDER_PAID, defaultLocale: "en", channel: "push", scope: { ...ADA, data: { order_id: "A", note: "é".repeat(2100) } } });
    expect(!result.ok && result.problem.code).toBe("too_large");
    expect(!result.ok && result.problem.message).toMatch(/^push payload \(en\): renders to a 4\d{3}-byte payload; FCM accepts at most 4 KiB \(4096 bytes\)$/);
  });

  it("refuses an image URL that does not render to https", () => {
    const body = TemplateBodySchema.parse({ variables: [], content: { en: { push: { title: "t", body: "b", imageUrl: "{{ data.image }}" } } } });
    const result = renderTemplate({ body, defaultLocale: "en", channel: "push", scope: { user: {}, data: { image: "javascript:alert(1)" } } });
    expect(!result.ok && result.problem).toMatchObject({ code: "render_error", field: "imageUrl" });
    const blank = renderTemplate({ body, defaultLocale: "en", channel: "push", scope: { user: {}, data: {} } });
    expect(blank.ok && blank.rendered.imageUrl).toBeUndefined();
  });
});

describe("renderTemplate: sms", () => {
  it("renders plainly and counts segments", () => {
    expect(renderTemplate({ body: ORDER_PAID, defaultLocale: "en", channel: "sms", scope: { ...ADA, data: { order_id: "A-1001", note: "<ok>" } } })).toEqual({
      ok: true,
      locale: "en",
      rendered: { body: "Order A-1001 paid. <ok>", encoding: "GSM-7", segments: 1 },
    });
  });

  it("refuses more than 10 segments, naming the count and encoding", () => {
    const result = renderTemplate({ body: ORDER_PAID, defaultLocale: "en", channel: "sms", scope: { ...ADA, data: { order_id: "A", note: "ж".repeat(700) } } });
    expect(!result.ok && result.problem).toMatchObject({ code: "too_large", message: "sms body (en): renders to 11 UCS-2 segments; an SMS may be at most 10" });
  });
});

describe("renderTemplate: failures before rendering", () => {
  it.each([
    ["absent", {}],
    ["null", { order_id: null }],
    ["empty", { order_id: "  " }],
  ])("names a required variable that is %s", (_label, data) => {
    expect(renderTemplate({ body: ORDER_PAID, defaultLocale: "en", channel: "sms", scope: { user: {}, data } })).toEqual({
      ok: false,
      problem: { code: "missing_variable", variable: "data.order_id", message: "required variable data.order_id is missing or empty" },
    });
  });

  it("is missing_content when neither the locale nor the default has the channel", () => {
    expect(renderTemplate({ body: ORDER_PAID, defaultLocale: "fr", channel: "push", locale: "pt", scope: ADA })).toEqual({
      ok: false,
      problem: { code: "missing_content", channel: "push", message: 'no push content for "pt" or the default locale "fr"' },
    });
  });

  it("falls back past a locale that lacks the channel", () => {
    const result = renderTemplate({ body: ORDER_PAID, defaultLocale: "en", channel: "sms", locale: "pt-BR", scope: ADA });
    expect(result.ok && result.locale).toBe("en");
  });

  it("turns a runaway loop into a render_error quickly", () => {
    const body = TemplateBodySchema.parse({ variables: [], content: { en: { sms: { body: "{% for i in (1..100000000) %}x{% endfor %}" } } } });
    const started = performance.now();
    const result = renderTemplate({ body, defaultLocale: "en", channel: "sms", scope: { user: {}, data: {} } });
    expect(!result.ok && result.problem).toMatchObject({ code: "render_error", field: "body", message: "sms body (en): memory alloc limit exceeded", line: 1, column: 1 });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
