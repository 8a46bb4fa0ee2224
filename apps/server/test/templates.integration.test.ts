import { describe, expect, it } from "vitest";
import { rest } from "./support/rest.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery } from "./support/trpc-http.ts";

const VARIABLES = [
  { name: "data.order_id", type: "string", required: true, example: "A-1" },
  { name: "user.first_name", type: "string", required: false, example: "Ada" },
];
const EMAIL = { subject: "Order {{ data.order_id }} is paid", html: "<p>Hi {{ user.first_name }}</p>" };

describe("the templates API", () => {
  const server = useTestServer();
  let n = 0;

  async function admin() {
    return (await memberWithSession(server.database, "admin")).cookie;
  }

  async function newTemplate(cookie: string, channels: string[] = ["email", "sms"]) {
    n += 1;
    const key = `order.paid-${n}`;
    const created = await trpcMutation(server.url, "templates.create", { key, name: "Order paid", channels, defaultCategory: null, defaultLocale: "en" }, { cookie });
    expect(created.error).toBeNull();
    return key;
  }

  /** Every herald table's row count and the template rows' bodies: what a refusal must leave untouched. */
  async function snapshot(key: string) {
    const { rows } = await server.database.pool.query(
      "SELECT status, version, variables, content, updated_at FROM herald.template_versions WHERE template_key = $1 ORDER BY id",
      [key],
    );
    return rows;
  }

  it("creates, saves a draft, publishes v1 and v2 with their diff in the audit log", async () => {
    const cookie = await admin();
    const key = await newTemplate(cookie);
    const got = await trpcQuery(server.url, "templates.get", { key }, { cookie });
    expect(got.data.template).toMatchObject({ key, channels: ["email", "sms"], currentVersion: null, hasDraft: true });
    expect(got.data.draft.content.en).toEqual({ email: { subject: "", html: "" }, sms: { body: "" } });
    expect(got.data.canEdit).toBe(true);

    const saved = await trpcMutation(
      server.url,
      "templates.saveDraft",
      { key, body: { variables: VARIABLES, content: { en: { email: EMAIL, sms: { body: "Order {{ data.order_id }} paid" } } } } },
      { cookie },
    );
    expect(saved.error).toBeNull();
    expect(saved.data.problems).toEqual([]);

    expect((await trpcMutation(server.url, "templates.publish", { key }, { cookie })).data).toEqual({ version: 1 });
    await trpcMutation(server.url, "templates.editVersion", { key, version: 1 }, { cookie });
    await trpcMutation(
      server.url,
      "templates.saveDraft",
      { key, body: { variables: VARIABLES, content: { en: { email: { ...EMAIL, subject: "Paid: {{ data.order_id }}" }, sms: { body: "Order {{ data.order_id }} paid" } } } } },
      { cookie },
    );
    expect((await trpcMutation(server.url, "templates.publish", { key }, { cookie })).data).toEqual({ version: 2 });

    const versions = (await trpcQuery(server.url, "templates.get", { key }, { cookie })).data.versions;
    expect(versions.map((v: { version: number | null; status: string }) => [v.version, v.status])).toEqual([
      [2, "published"],
      [1, "published"],
    ]);

    const diff = await trpcQuery(server.url, "templates.diff", { key, from: 1, to: 2 }, { cookie });
    expect(diff.data.fields).toHaveLength(1);
    expect(diff.data.fields[0]).toMatchObject({ field: "en · email · subject", change: "changed" });
    const kinds = diff.data.fields[0].lines.map((l: { kind: string; text: string }) => `${l.kind}:${l.text}`);
    expect(kinds).toEqual(["removed:Order {{ data.order_id }} is paid", "added:Paid: {{ data.order_id }}"]);

    const { rows } = await server.database.pool.query(
      "SELECT target, detail FROM herald.audit_log WHERE action = 'templates.publish' AND target LIKE $1 ORDER BY id",
      [`${key}@%`],
    );
    expect(rows.map((r) => r.target)).toEqual([`${key}@1`, `${key}@2`]);
    expect(JSON.stringify(rows[1].detail)).toContain("Paid: {{ data.order_id }}");
    expect(JSON.stringify(rows[1].detail)).toContain("en · email · subject");
  });

  it("reports Liquid syntax errors with line and column, saves the draft, and refuses to publish it", async () => {
    const cookie = await admin();
    const key = await newTemplate(cookie, ["email"]);
    const html = "<p>one</p>\n<p>two</p>\n<p>{{ data.order_id </p>";
    const saved = await trpcMutation(server.url, "templates.saveDraft", { key, body: { variables: VARIABLES, content: { en: { email: { ...EMAIL, html } } } } }, { cookie });
    const syntax = saved.data.problems.find((p: { code: string }) => p.code === "syntax");
    expect(syntax).toMatchObject({ locale: "en", channel: "email", field: "html", line: 3 });
    expect(syntax.column).toBeGreaterThan(0);

    const refused = await trpcMutation(server.url, "templates.publish", { key }, { cookie });
    expect(refused.error?.data.code).toBe("BAD_REQUEST");
    expect(refused.error?.message).toMatch(/Publish refused.*en · email · html line 3/);
    expect((await trpcQuery(server.url, "templates.get", { key }, { cookie })).data.template.currentVersion).toBeNull();
  });

  it("refuses to publish content that uses a variable the schema lacks", async () => {
    const cookie = await admin();
    const key = await newTemplate(cookie, ["email"]);
    await trpcMutation(server.url, "templates.saveDraft", { key, body: { variables: VARIABLES, content: { en: { email: { ...EMAIL, subject: "Hi {{ data.coupon }}" } } } } }, { cookie });
    const refused = await trpcMutation(server.url, "templates.publish", { key }, { cookie });
    expect(refused.error?.message).toContain("data.coupon");
    expect(refused.error?.data).toMatchObject({ details: { problems: [expect.objectContaining({ code: "unknown_variable", variable: "data.coupon" })] } });
  });

  it("refuses over-size HTML, an unknown locale and header injection in the source, and saves nothing", async () => {
    const cookie = await admin();
    const key = await newTemplate(cookie, ["email"]);
    const before = await snapshot(key);
    const cases = [
      { content: { en: { email: { ...EMAIL, html: "x".repeat(512 * 1024 + 1) } } }, expect: /512 KiB/ },
      { content: { "xx-QQ": { email: EMAIL } }, expect: /xx-QQ/ },
      { content: { en: { email: { ...EMAIL, subject: "Hi\r\nBcc: victim@example.com" } } }, expect: /one line/ },
    ];
    for (const c of cases) {
      const refused = await trpcMutation(server.url, "templates.saveDraft", { key, body: { variables: VARIABLES, content: c.content } }, { cookie });
      expect(refused.error?.data.code).toBe("BAD_REQUEST");
      expect(refused.error?.message).toMatch(c.expect);
    }
    expect(await snapshot(key)).toEqual(before);
  });

  it("never edits a published version: a draft is started from it instead", async () => {
    const cookie = await admin();
    const key = await newTemplate(cookie, ["email"]);
    await trpcMutation(server.url, "templates.saveDraft", { key, body: { variables: VARIABLES, content: { en: { email: EMAIL } } } }, { cookie });
    await trpcMutation(server.url, "templates.publish", { key }, { cookie });
    const published = await snapshot(key);
    expect(published).toHaveLength(1);

    // No draft now: saving creates one based on v1, and v1 stays as it was.
    await trpcMutation(server.url, "templates.saveDraft", { key, body: { variables: VARIABLES, content: { en: { email: { ...EMAIL, subject: "changed" } } } } }, { cookie });
    const after = await snapshot(key);
    expect(after[0]).toEqual(published[0]);
    expect(after[1]).toMatchObject({ status: "draft", version: null });

    const conflict = await trpcMutation(server.url, "templates.editVersion", { key, version: 1 }, { cookie });
    expect(conflict.error?.data.code).toBe("CONFLICT");
    const archiveCurrent = await trpcMutation(server.url, "templates.archive", { key, version: 1 }, { cookie });
    expect(archiveCurrent.error?.message).toMatch(/current/);
  });

  it("previews unsaved content with the examples or a real user's attributes, escaping data in HTML only", async () => {
    const cookie = await admin();
    const key = await newTemplate(cookie, ["email", "sms"]);
    await server.database.pool.query(
      `INSERT INTO herald.users (external_id, email, locale, attributes) VALUES ('u-preview', 'grace@example.com', 'en', '{"first_name": "<script>x</script>{{ user.email }}"}')`,
    );
    const body = { variables: VARIABLES, content: { en: { email: EMAIL, sms: { body: "Hi {{ user.first_name }} — {{ data.order_id }}" } } } };
    const examples = await trpcMutation(server.url, "templates.preview", { key, body, channel: "email", locale: "en", source: { kind: "examples" } }, { cookie });
    expect(examples.data.result).toMatchObject({ ok: true, locale: "en", rendered: { subject: "Order A-1 is paid" } });
    expect(examples.data.result.rendered.html).toContain("Hi Ada");

    const real = await trpcMutation(server.url, "templates.preview", { key, body, channel: "email", locale: "en", source: { kind: "user", userId: "u-preview" } }, { cookie });
    expect(real.data.result.rendered.html).toContain("&lt;script&gt;x&lt;/script&gt;{{ user.email }}");
    const sms = await trpcMutation(server.url, "templates.preview", { key, body, channel: "sms", locale: "en", source: { kind: "user", userId: "u-preview" } }, { cookie });
    expect(sms.data.result.rendered).toMatchObject({ body: "Hi <script>x</script>{{ user.email }} — A-1", encoding: "UCS-2", segments: 1 });

    const unknown = await trpcMutation(server.url, "templates.preview", { key, body, channel: "email", locale: "en", source: { kind: "user", userId: "nobody" } }, { cookie });
    expect(unknown.error?.data.code).toBe("NOT_FOUND");
  });

  it("sends a test to the member's own address through the configured provider, and refuses without one", async () => {
    const { member, cookie } = await memberWithSession(server.database, "marketer");
    const key = await newTemplate(cookie, ["email", "sms"]);
    await trpcMutation(
      server.url,
      "templates.saveDraft",
      { key, body: { variables: VARIABLES, content: { en: { email: EMAIL, sms: { body: "Order {{ data.order_id }}" } } } } },
      { cookie },
    );
    const sent = await trpcMutation(server.url, "templates.sendTest", { key, version: "draft", channel: "email" }, { cookie });
    expect(sent.error).toBeNull();
    // The providers page's answer, field for field (one mapping serves both).
    expect(sent.data).toMatchObject({ to: member.email, provider: "sandbox-email", outcome: "sent", providerCode: null, reason: null, providerMessageId: expect.any(String) });
    const { rows } = await server.database.pool.query("SELECT recipient, subject FROM herald.sandbox_messages WHERE recipient = $1", [member.email]);
    expect(rows).toEqual([{ recipient: member.email, subject: "[Test] Order A-1 is paid" }]);

    const noPhone = await trpcMutation(server.url, "templates.sendTest", { key, version: "draft", channel: "sms" }, { cookie });
    expect(noPhone.error?.message).toMatch(/test phone number/);
    const badPhone = await trpcMutation(server.url, "templates.setTestDestinations", { phone: "0151 123", pushToken: null }, { cookie });
    expect(badPhone.error?.data.code).toBe("BAD_REQUEST");
    await trpcMutation(server.url, "templates.setTestDestinations", { phone: "+4915112345678", pushToken: null }, { cookie });
    const sms = await trpcMutation(server.url, "templates.sendTest", { key, version: "draft", channel: "sms" }, { cookie });
    expect(sms.data).toMatchObject({ to: "+4915112345678", outcome: "sent" });
  });

  it("lets viewers read and preview but not edit", async () => {
    const key = await newTemplate(await admin(), ["email"]);
    const { cookie } = await memberWithSession(server.database, "viewer");
    expect((await trpcQuery(server.url, "templates.get", { key }, { cookie })).data.canEdit).toBe(false);
    const refused = await trpcMutation(server.url, "templates.saveDraft", { key, body: { variables: [], content: { en: { email: EMAIL } } } }, { cookie });
    expect(refused.error?.data.code).toBe("FORBIDDEN");
  });

  it("lets notification types name a published template with that channel, and pins it on each event", async () => {
    const cookie = await admin();
    const adminKey = await server.apiKey("admin");
    await rest(server.url, "PUT", "/categories/orders", adminKey, { label: "Orders" });
    const put = (template: string, channel = "email") =>
      rest(server.url, "PUT", "/notification-types/order.paid", adminKey, { channels: [{ channel, category: "orders", template }] });

    expect((await put("no.such.template")).body.error.code).toBe("template_not_found");
    const key = await newTemplate(cookie, ["email"]);
    const unpublished = await put(key);
    expect(unpublished.status).toBe(422);
    expect(unpublished.body.error.message).toMatch(/no published version/);

    await trpcMutation(server.url, "templates.saveDraft", { key, body: { variables: VARIABLES, content: { en: { email: EMAIL } } } }, { cookie });
    await trpcMutation(server.url, "templates.publish", { key }, { cookie });
    const wrongChannel = await put(key, "sms");
    expect(wrongChannel.status).toBe(422);
    expect(wrongChannel.body.error.message).toMatch(/no sms content/);
    expect((await put(key)).status).toBe(201);

    const events = await rest(server.url, "POST", "/events", await server.apiKey("events"), { eventId: "e-1", type: "order.paid", userId: "u-1", data: { order_id: "A-9" } });
    expect(events.status).toBeLessThan(300);
    const { rows } = await server.database.pool.query("SELECT template_key, template_version FROM herald.notifications WHERE type = 'order.paid'");
    expect(rows).toEqual([{ template_key: key, template_version: 1 }]);
  });
});
