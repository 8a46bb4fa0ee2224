import { checkTemplate, TemplateBodySchema, type TemplateBody } from "@herald/core";
import { consentHolds, createTemplate, ingestEvents, openDatabase, publishTemplateDraft, saveTemplateDraft, type Database } from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { BreakerBook } from "../src/dispatch/breaker-book.ts";
import { dispatchBatch, type DispatcherDependencies } from "../src/dispatch/dispatcher.ts";
import { createTemplateStore } from "../src/dispatch/template-store.ts";
import { createEmailLinks } from "../src/links/email-links.ts";
import { createLinkTokens } from "../src/links/link-tokens.ts";
import { createProviderRegistry } from "../src/providers/provider-registry.ts";
import { ScriptedProvider } from "./support/scripted-provider.ts";

const VARIABLES = [
  { name: "data.order_id", type: "string", required: true, example: "A-1" },
  { name: "user.first_name", type: "string", required: false, example: "Ada" },
];

function body(subject: string, extra: TemplateBody["content"] = {}): TemplateBody {
  return TemplateBodySchema.parse({
    variables: VARIABLES,
    content: {
      en: { email: { subject, html: "<p>Hello {{ user.first_name | default: 'there' }}, order {{ data.order_id }} <script>alert(1)</script></p>" } },
      ...extra,
    },
  });
}

describe("templates at send time: pinning, retries, locales, missing variables", () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let memberId: string;
  let counter = 0;

  beforeAll(async () => {
    testDatabase = await createTestDatabase(inject("templateUrl"));
    database = openDatabase(testDatabase.url);
    const { rows } = await database.pool.query(
      `INSERT INTO herald.members (email, name, role, password_hash) VALUES ('m@example.com', 'Mara', 'marketer', 'x') RETURNING id::text`,
    );
    memberId = rows[0].id;
    await database.pool.query(`INSERT INTO herald.categories (key, label) VALUES ('orders', 'Orders')`);
    await createTemplate(database.pool, {
      key: "order.paid",
      name: "Order paid",
      channels: ["email"],
      defaultCategory: "orders",
      defaultLocale: "en",
      memberId,
      draft: body("Order {{ data.order_id }} is paid (v1)", { pt: { email: { subject: "Pedido {{ data.order_id }} pago", html: "<p>Olá</p>" } } }),
    });
    await publish();
    await database.pool.query(
      `INSERT INTO herald.notification_types (type, channels) VALUES ('order.paid', '[{"channel": "email", "category": "orders", "template": "order.paid"}]')`,
    );
  });
  afterAll(async () => {
    await database.close();
    await testDatabase.drop();
  });

  async function publish(): Promise<number> {
    const outcome = await publishTemplateDraft(database.pool, "order.paid", memberId, (draft, meta) =>
      checkTemplate({ meta: { channels: meta.channels as ["email"], defaultLocale: meta.defaultLocale }, body: draft as TemplateBody }),
    );
    if (outcome.kind !== "published") throw new Error(`publish failed: ${JSON.stringify(outcome)}`);
    return outcome.version;
  }

  const store = () => createTemplateStore(database.pool);
  function deps(provider: ScriptedProvider, templates = store()): DispatcherDependencies {
    return {
      sql: database.pool,
      holdConsent: consentHolds(database.pool),
      providers: createProviderRegistry({ email: { primary: provider } }),
      breakers: new BreakerBook(database.pool, () => ({ failureThreshold: 100, coolDownMs: 30_000 }), 0),
      policy: async () => ({ retry: { floorMs: 10_000, baseMs: 10_000, maxAttempts: 5, maxAgeMs: 3_600_000 }, outageMaxAgeMs: 86_400_000, breakerCoolDownMs: 30_000, defaultTimezone: "UTC" }),
      log: pino({ level: "silent" }),
      templates,
    };
  }

  async function notification(data: Record<string, unknown>, locale: string | null = null): Promise<string> {
    counter += 1;
    const user = `user-${counter}`;
    await database.pool.query("INSERT INTO herald.users (external_id, email, locale, attributes) VALUES ($1, $2, $3, $4)", [
      user,
      `${user}@example.com`,
      locale,
      JSON.stringify({ first_name: "Grace" }),
    ]);
    const [r] = await ingestEvents(database.pool, [{ eventId: `ev-${counter}`, type: "order.paid", userId: user, data }]);
    return r!.notifications[0]!.id;
  }

  const row = async (id: string) =>
    (await database.pool.query("SELECT status, reason, dispatch_state, template_key, template_version, rendered FROM herald.notifications WHERE id = $1", [id])).rows[0];

  it("pins the current version at ingest, and a retry after v2 is published still renders v1", async () => {
    const provider = new ScriptedProvider("email-pin", "email").answer({ kind: "retry", reason: "http_503", providerCode: "503" });
    const d = deps(provider);
    const id = await notification({ order_id: "A-100" });
    expect(await row(id)).toMatchObject({ template_key: "order.paid", template_version: 1 });

    await dispatchBatch(d, "email", [id], "1");
    expect(await row(id)).toMatchObject({ status: "pending", dispatch_state: "retry_wait" });
    expect(provider.calls[0]!.subject).toBe("Order A-100 is paid (v1)");

    await saveTemplateDraft(database.pool, "order.paid", body("Your order {{ data.order_id }} (v2)"), memberId);
    expect(await publish()).toBe(2);

    await database.pool.query("UPDATE herald.notifications SET next_attempt_at = now() WHERE id = $1", [id]);
    // A fresh store too: the copy comes from the pinned row in the database, not a warm cache.
    await dispatchBatch(deps(provider), "email", [id], "2");
    expect(await row(id)).toMatchObject({ status: "sent", template_version: 1 });
    expect(provider.calls[1]!.subject).toBe("Order A-100 is paid (v1)");

    const next = await notification({ order_id: "A-101" });
    expect(await row(next)).toMatchObject({ template_version: 2 });
    await dispatchBatch(d, "email", [next], "3");
    expect(provider.calls[2]!.subject).toBe("Your order A-101 (v2)");
  });

  it("renders HTML escaped and sanitised, and a text part generated from it", async () => {
    const provider = new ScriptedProvider("email-html", "email");
    const id = await notification({ order_id: "<b>A-102</b>" });
    await dispatchBatch(deps(provider), "email", [id], "4");
    const sent = provider.calls[0]!;
    expect(sent.html).toContain("&lt;b&gt;A-102&lt;/b&gt;");
    expect(sent.html).not.toContain("<script");
    expect(sent.body).toContain("Hello Grace, order <b>A-102</b>");
    expect((await row(id)).rendered).toMatchObject({ locale: "en", template: "order.paid", version: 2 });
  });

  it("falls back along the user's locale chain: pt-BR renders the pt copy", async () => {
    const provider = new ScriptedProvider("email-locale", "email");
    // v2 has no pt copy: pin v1 by hand as a notification created before v2 would have been.
    const id = await notification({ order_id: "A-103" }, "pt-BR");
    await database.pool.query("UPDATE herald.notifications SET template_version = 1 WHERE id = $1", [id]);
    await dispatchBatch(deps(provider), "email", [id], "5");
    expect(provider.calls[0]!.subject).toBe("Pedido A-103 pago");
    expect((await row(id)).rendered).toMatchObject({ locale: "pt" });
  });

  it("dead-letters a notification missing a required variable, naming it, and never calls the provider", async () => {
    const provider = new ScriptedProvider("email-missing", "email");
    const id = await notification({});
    await dispatchBatch(deps(provider), "email", [id], "6");
    expect(await row(id)).toMatchObject({ status: "dead", reason: "render_failed:data.order_id" });
    expect(provider.calls).toHaveLength(0);
  });

  it("refuses, in the database itself, any edit or deletion of a published version", async () => {
    await expect(
      database.pool.query(`UPDATE herald.template_versions SET content = '{}' WHERE template_key = 'order.paid' AND version = 1`),
    ).rejects.toThrow(/published and cannot be edited/);
    await expect(database.pool.query(`DELETE FROM herald.template_versions WHERE template_key = 'order.paid' AND version = 1`)).rejects.toThrow(
      /cannot be deleted/,
    );
  });

  it("rewrites a template email's links for click tracking when its category opts in", async () => {
    await database.pool.query(`UPDATE herald.categories SET tracking = '{"clicks": true}' WHERE key = 'orders'`);
    await saveTemplateDraft(
      database.pool,
      "order.paid",
      body("Order {{ data.order_id }}", { en: { email: { subject: "Order {{ data.order_id }}", html: '<p><a href="https://shop.example/o/{{ data.order_id }}">Track it</a></p>' } } }),
      memberId,
    );
    await publish();
    const provider = new ScriptedProvider("email-tracked", "email");
    const d = { ...deps(provider), emailLinks: createEmailLinks({ sql: database.pool, tokens: createLinkTokens("k".repeat(64)), publicUrl: new URL("https://herald.example/") }) };
    const id = await notification({ order_id: "A-104" });
    await dispatchBatch(d, "email", [id], "7");
    expect(provider.calls[0]!.html).toMatch(/href="https:\/\/herald\.example\/t\/c\/[^"]+"/);
    expect(provider.calls[0]!.html).not.toContain("https://shop.example/o/A-104");
    // Only the HTML is rewritten: the text part keeps the destination as written.
    expect(provider.calls[0]!.body).toContain("Track it (https://shop.example/o/A-104)");
  });
});
