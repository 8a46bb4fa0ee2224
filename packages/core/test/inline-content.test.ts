import { describe, expect, it } from "vitest";
import { InlineContentSchema, findPlaceholders, renderInlineContent } from "../src/content/inline-content.ts";

const ADA = {
  user: { first_name: "Ada", email: "ada@example.com", vip: true, visits: 3 },
  data: { order: { id: "8841", total: 42.5, items: ["tea", "cake"] }, note: "<script>alert(1)</script>", tricky: "{{ data.order.id }}" },
};

describe("findPlaceholders", () => {
  it("lists each placeholder's expression with or without spaces", () => {
    expect(findPlaceholders("Hi {{user.first_name}}, order {{ data.order.id }} and {{  5 }}")).toEqual(["user.first_name", "data.order.id", "5"]);
  });

  it("ignores an unclosed brace pair", () => {
    expect(findPlaceholders("a {{ user.x")).toEqual([]);
  });
});

describe("InlineContentSchema", () => {
  it("accepts content using user and data placeholders", () => {
    expect(InlineContentSchema.safeParse({ subject: "Order {{ data.order.id }}", body: "Hi {{ user.first_name }}" }).success).toBe(true);
  });

  it.each([
    ["a placeholder with another root", { body: "{{ system.secret }}" }, '"{{ system.secret }}" is not a placeholder: use {{ user.<field> }} or {{ data.<path> }}'],
    ["a number placeholder", { body: "{{ 5 }}" }, '"{{ 5 }}" is not a placeholder: use {{ user.<field> }} or {{ data.<path> }}'],
    ["a bare root", { body: "{{ user }}" }, '"{{ user }}" is not a placeholder: use {{ user.<field> }} or {{ data.<path> }}'],
    ["a filter", { body: "{{ user.name | upcase }}" }, '"{{ user.name | upcase }}" is not a placeholder: use {{ user.<field> }} or {{ data.<path> }}'],
    ["an empty body", { body: "" }, "must not be empty"],
    ["a body over 10,000 characters", { body: "x".repeat(10_001) }, "must be at most 10000 characters"],
    ["a subject with a line break", { subject: "Hi\r\nBcc: x@y.z", body: "b" }, "must be one line without control characters"],
    ["a title over 300 characters", { title: "t".repeat(301), body: "b" }, "must be at most 300 characters"],
    ["html over 512 KiB", { body: "b", html: "é".repeat(262_145) }, "must be at most 512 KiB"],
  ])("rejects %s", (_label, content, message) => {
    expect(InlineContentSchema.safeParse(content).error?.issues[0]?.message).toBe(message);
  });

  it("measures html in UTF-8 bytes: 262,144 two-byte characters fit", () => {
    expect(InlineContentSchema.safeParse({ body: "b", html: "é".repeat(262_144) }).success).toBe(true);
  });
});

describe("renderInlineContent", () => {
  it("fills placeholders in every field, with or without spaces", () => {
    expect(
      renderInlineContent(
        { title: "Hi {{user.first_name}}", subject: "Order {{ data.order.id }}", body: "Total {{ data.order.total }}", html: "<p>{{ user.email }}</p>" },
        ADA,
      ),
    ).toEqual({
      ok: true,
      rendered: { title: "Hi Ada", subject: "Order 8841", body: "Total 42.5", html: "<p>ada@example.com</p>" },
    });
  });

  it("stringifies booleans and numbers, and writes objects as JSON", () => {
    expect(renderInlineContent({ body: "{{ user.vip }} {{ user.visits }} {{ data.order.items }}" }, ADA)).toEqual({
      ok: true,
      rendered: { body: 'true 3 ["tea","cake"]' },
    });
  });

  it("escapes a <script> value in html only", () => {
    expect(renderInlineContent({ body: "Note: {{ data.note }}", html: "<p>{{ data.note }}</p>" }, ADA)).toEqual({
      ok: true,
      rendered: { body: "Note: <script>alert(1)</script>", html: "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>" },
    });
  });

  it("escapes quotes and ampersands inside an html attribute", () => {
    const scope = { user: {}, data: { name: `Tom & "Jerry's"` } };
    expect(renderInlineContent({ body: "b", html: '<a title="{{ data.name }}">' }, scope)).toEqual({
      ok: true,
      rendered: { body: "b", html: '<a title="Tom &amp; &quot;Jerry&#39;s&quot;">' },
    });
  });

  it("turns a CRLF in a value into a space in the subject and title, against header injection", () => {
    const scope = { user: {}, data: { name: "Ada\r\nBcc: victim@example.com", line: "one\ntwo" } };
    expect(renderInlineContent({ title: "{{ data.line }}", subject: "Hi {{ data.name }}", body: "{{ data.line }}" }, scope)).toEqual({
      ok: true,
      rendered: { title: "one two", subject: "Hi Ada Bcc: victim@example.com", body: "one\ntwo" },
    });
  });

  it("reports the first missing variable instead of sending 'Hello ,'", () => {
    expect(renderInlineContent({ subject: "Hello {{ user.last_name }},", body: "{{ data.order.tax }}" }, ADA)).toEqual({
      ok: false,
      missingVariable: "user.last_name",
    });
  });

  it("treats a null value and a missing parent as missing", () => {
    const scope = { user: {}, data: { order: { total: null } } };
    expect(renderInlineContent({ body: "{{ data.order.total }}" }, scope)).toEqual({ ok: false, missingVariable: "data.order.total" });
    expect(renderInlineContent({ body: "{{ data.invoice.total }}" }, scope)).toEqual({ ok: false, missingVariable: "data.invoice.total" });
  });

  it("does not read inherited properties such as constructor", () => {
    expect(renderInlineContent({ body: "{{ user.constructor }}" }, ADA)).toEqual({ ok: false, missingVariable: "user.constructor" });
  });

  it("leaves a value that looks like a placeholder literal (single pass)", () => {
    expect(renderInlineContent({ body: "Echo: {{ data.tricky }}" }, ADA)).toEqual({
      ok: true,
      rendered: { body: "Echo: {{ data.order.id }}" },
    });
  });
});
