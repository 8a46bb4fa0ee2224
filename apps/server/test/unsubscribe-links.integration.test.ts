import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { consentHolds, getPreferenceMatrix, ingestEvents } from "@herald/db";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BreakerBook } from "../src/dispatch/breaker-book.ts";
import { dispatchBatch } from "../src/dispatch/dispatcher.ts";
import { unsubscribeRoutes } from "../src/http/links/unsubscribe-routes.ts";
import { restErrorHandler } from "../src/http/rest-errors.ts";
import { securityHeaders } from "../src/http/security-headers.ts";
import { createEmailLinks } from "../src/links/email-links.ts";
import { createLinkTokens } from "../src/links/link-tokens.ts";
import { createProviderRegistry } from "../src/providers/provider-registry.ts";
import type { AppServices } from "../src/trpc/context.ts";
import { ScriptedProvider } from "./support/scripted-provider.ts";
import { countRows, withoutWrites } from "./support/table-snapshot.ts";
import { useTestServer } from "./support/test-server.ts";

// The List-Unsubscribe target and preference centre (docs/unsubscribe-and-tracking.md) over
// real HTTP, mounted at the root as app.ts mounts it, behind the app's own security headers.

const SECRET_KEY = "u".repeat(48);

describe("unsubscribe links", () => {
  const server = useTestServer({ env: { HERALD_SECRET_KEY: SECRET_KEY, HERALD_WORKSPACE_NAME: "Acme <Notes>" } });
  const tokens = createLinkTokens(SECRET_KEY);
  const servers: Server[] = [];
  let base: string;
  let productionWithoutKey: string;
  let counter = 0;

  async function mount(services: AppServices): Promise<string> {
    const app = express();
    app.use(securityHeaders({ https: false }));
    app.use(unsubscribeRoutes(services));
    app.use(restErrorHandler(services.log));
    const listening = app.listen(0, "127.0.0.1");
    servers.push(listening);
    await new Promise((resolve) => listening.once("listening", resolve));
    return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    const services = server.services;
    base = await mount(services);
    productionWithoutKey = await mount({ ...services, env: { ...server.env, HERALD_MODE: "production", HERALD_SECRET_KEY: undefined } });
    await server.database.pool.query(`
      INSERT INTO herald.categories (key, label, mandatory, defaults) VALUES
        ('marketing', 'Marketing <b>offers</b>', false, '{}'),
        ('digest', 'Digest', false, '{"sms": false}'),
        ('security', 'Security', true, '{}');
      INSERT INTO herald.notification_types (type, channels) VALUES
        ('promo.email', '[{"channel": "email", "category": "marketing", "content": {"subject": "Hi", "body": "Sale", "html": "<p>Sale</p>"}}]'),
        ('login.email', '[{"channel": "email", "category": "security", "content": {"subject": "New sign-in", "body": "Was it you?"}}]');`);
  });
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });

  /** A user with one sent email of the category, and the token its List-Unsubscribe link carries. */
  async function recipient(category = "marketing") {
    counter += 1;
    const externalId = `unsub-${counter}`;
    const pool = server.database.pool;
    const { rows: users } = await pool.query("INSERT INTO herald.users (external_id, email) VALUES ($1, $2) RETURNING id::text", [
      externalId,
      `${externalId}@example.com`,
    ]);
    const { rows } = await pool.query(
      `INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, status, dispatch_state, content, address)
       VALUES ($1, $2, 'promo.email', 'email', $3, 'sent', 'done', '{"body": "x"}', $4) RETURNING id::text`,
      [`unsub-n-${counter}`, users[0].id, category, `${externalId}@example.com`],
    );
    const notificationId: string = rows[0].id;
    const token = tokens.sign("unsubscribe", { n: notificationId, u: users[0].id, c: category, ch: "email" });
    return { externalId, userId: users[0].id as string, notificationId, token };
  }

  const post = (url: string, body: string | FormData, contentType?: string) =>
    fetch(url, { method: "POST", redirect: "manual", headers: contentType ? { "content-type": contentType } : {}, body });

  async function preference(userId: string, category: string, channel = "email") {
    const { rows } = await server.database.pool.query(
      "SELECT enabled, source FROM herald.preferences WHERE user_id = $1 AND category = $2 AND channel = $3",
      [userId, category, channel],
    );
    return rows[0] ?? null;
  }

  async function events(notificationId: string) {
    const { rows } = await server.database.pool.query("SELECT type, detail FROM herald.notification_events WHERE notification_id = $1 ORDER BY id", [
      notificationId,
    ]);
    return rows;
  }

  async function audit(externalId: string) {
    const { rows } = await server.database.pool.query("SELECT actor, action, detail FROM herald.audit_log WHERE target = $1 ORDER BY id", [
      `user:${externalId}`,
    ]);
    return rows;
  }

  it("GET shows the preference centre and writes nothing, however often a scanner follows it", async () => {
    const r = await recipient();
    await server.database.pool.query("INSERT INTO herald.quiet_hours (user_id, start_time, end_time, timezone) VALUES ($1, '22:00', '07:00', 'Europe/Berlin')", [
      r.userId,
    ]);
    const page = await withoutWrites(server.database.pool, async () => {
      await fetch(`${base}/u/${r.token}`);
      await fetch(`${base}/u/${r.token}`, { method: "HEAD" });
      return fetch(`${base}/u/${r.token}`);
    });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("set-cookie")).toBeNull();
    const html = await page.text();
    expect(html).toContain("Acme &lt;Notes&gt;: notification preferences");
    expect(html).toContain("Marketing &lt;b&gt;offers&lt;/b&gt;");
    expect(html).not.toContain("<b>offers</b>");
    expect(html).toContain("You're receiving Marketing &lt;b&gt;offers&lt;/b&gt; emails.");
    expect(html).toContain('name="action" value="unsubscribe"');
    expect(html).toContain("Always sent: security messages can't be switched off.");
    expect(html).toContain("22:00–07:00 (Europe/Berlin)");
    expect(html).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/);
    expect(await preference(r.userId, "marketing")).toBeNull();
  });

  it("one-click POST, form-urlencoded: opts out of that category on that channel, 200, no redirect", async () => {
    const r = await recipient();
    const response = await post(`${base}/u/${r.token}`, "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded");
    expect(response.status).toBe(200);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await preference(r.userId, "marketing")).toEqual({ enabled: false, source: "unsubscribe_link" });
    expect(await preference(r.userId, "marketing", "push")).toBeNull();
    expect(await events(r.notificationId)).toEqual([
      { type: "unsubscribed", detail: { category: "marketing", channel: "email", via: "one_click", source: "unsubscribe_link" } },
    ]);
    expect(await audit(r.externalId)).toEqual([
      {
        actor: "unsubscribe_link",
        action: "preferences.unsubscribe",
        detail: { category: "marketing", channel: "email", via: "one_click", source: "unsubscribe_link", notificationId: r.notificationId },
      },
    ]);
    const gated = (await getPreferenceMatrix(server.database.pool, r.externalId)).find((p) => p.category === "marketing" && p.channel === "email");
    expect(gated).toMatchObject({ enabled: false, source: "unsubscribe_link" });
    expect(await countRows(server.database.pool, "suppressions")).toBe(0);
  });

  it("one-click POST, multipart/form-data (RFC 8058 §8.3, and the example as printed): the same opt-out", async () => {
    const a = await recipient();
    const form = new FormData();
    form.set("List-Unsubscribe", "One-Click");
    expect((await post(`${base}/u/${a.token}`, form)).status).toBe(200);
    expect(await preference(a.userId, "marketing")).toEqual({ enabled: false, source: "unsubscribe_link" });

    const b = await recipient();
    const printed = '---FormBoundaryjWmhtjORrn\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n---FormBoundaryjWmhtjORrn--\r\n';
    const response = await post(`${base}/u/${b.token}`, printed, "multipart/form-data; boundary=---FormBoundaryjWmhtjORrn");
    expect(response.status).toBe(200);
    expect(await preference(b.userId, "marketing")).toEqual({ enabled: false, source: "unsubscribe_link" });
    expect(await countRows(server.database.pool, "suppressions")).toBe(0);
  });

  it("repeated one-click POSTs are harmless: 200 each time, one opt-out, one event, one audit entry", async () => {
    const r = await recipient();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post(`${base}/u/${r.token}`, "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded")),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const again = await withoutWrites(server.database.pool, () => post(`${base}/u/${r.token}`, "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded"));
    expect(again.status).toBe(200);
    expect(await preference(r.userId, "marketing")).toEqual({ enabled: false, source: "unsubscribe_link" });
    expect((await events(r.notificationId)).map((e) => e.type)).toEqual(["unsubscribed"]);
    expect(await audit(r.externalId)).toHaveLength(1);
  });

  it("a mandatory category cannot be opted out: 200, nothing written, and the page says so", async () => {
    const r = await recipient("security");
    const response = await withoutWrites(server.database.pool, () =>
      post(`${base}/u/${r.token}`, "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded"),
    );
    expect(response.status).toBe(200);
    const page = await withoutWrites(server.database.pool, () => post(`${base}/u/${r.token}`, "action=unsubscribe", "application/x-www-form-urlencoded"));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Security emails are always sent and can&#39;t be switched off.");
    expect(html).not.toContain('value="unsubscribe"');
    const toggle = await withoutWrites(server.database.pool, () =>
      post(`${base}/u/${r.token}`, "action=set&category=security&channel=sms&enabled=false", "application/x-www-form-urlencoded"),
    );
    expect(toggle.status).toBe(200);
    expect(await preference(r.userId, "security", "sms")).toBeNull();
  });

  it("a tampered or foreign token is a 404 page, on GET and POST, and writes nothing", async () => {
    const r = await recipient();
    const [body, signature] = r.token.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ n: r.notificationId, u: "1", c: "marketing", ch: "email" })).toString("base64url");
    const open = tokens.sign("open", { n: r.notificationId });
    for (const token of [`${forged}.${signature}`, `${body}.${signature.slice(0, -2)}AA`, "garbage", open]) {
      const get = await withoutWrites(server.database.pool, () => fetch(`${base}/u/${encodeURIComponent(token)}`));
      expect(get.status).toBe(404);
      expect(await get.text()).toContain("This link doesn&#39;t work");
      const oneClick = await withoutWrites(server.database.pool, () =>
        post(`${base}/u/${encodeURIComponent(token)}`, "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded"),
      );
      expect(oneClick.status).toBe(404);
      const form = await withoutWrites(server.database.pool, () => post(`${base}/u/${encodeURIComponent(token)}`, "action=unsubscribe", "application/x-www-form-urlencoded"));
      expect(form.status).toBe(404);
    }
  });

  it("the page's forms unsubscribe, resubscribe and toggle other categories, answering the page in place", async () => {
    const r = await recipient();
    const off = await post(`${base}/u/${r.token}`, "action=unsubscribe", "application/x-www-form-urlencoded");
    expect(off.status).toBe(200);
    expect(await off.text()).toContain("Done: you won&#39;t receive Marketing &lt;b&gt;offers&lt;/b&gt; emails any more.");
    const on = await post(`${base}/u/${r.token}`, "action=resubscribe", "application/x-www-form-urlencoded");
    const onHtml = await on.text();
    expect(onHtml).toContain("Done: you&#39;ll receive Marketing &lt;b&gt;offers&lt;/b&gt; emails again.");
    expect(onHtml).toContain('value="unsubscribe"');
    expect(await preference(r.userId, "marketing")).toEqual({ enabled: true, source: "unsubscribe_link" });

    const digestSms = await post(`${base}/u/${r.token}`, "action=set&category=digest&channel=sms&enabled=true", "application/x-www-form-urlencoded");
    expect(digestSms.status).toBe(200);
    expect(await preference(r.userId, "digest", "sms")).toEqual({ enabled: true, source: "unsubscribe_link" });
    expect((await events(r.notificationId)).map((e) => [e.type, e.detail.category, e.detail.channel, e.detail.via])).toEqual([
      ["unsubscribed", "marketing", "email", "page"],
      ["resubscribed", "marketing", "email", "page"],
      ["resubscribed", "digest", "sms", "page"],
    ]);
    expect((await audit(r.externalId)).map((a) => a.action)).toEqual(["preferences.unsubscribe", "preferences.resubscribe", "preferences.resubscribe"]);

    const nonsense = await withoutWrites(server.database.pool, () => post(`${base}/u/${r.token}`, "action=delete-everything", "application/x-www-form-urlencoded"));
    expect(nonsense.status).toBe(400);
    const unknown = await withoutWrites(server.database.pool, () =>
      post(`${base}/u/${r.token}`, "action=set&category=nope&channel=email&enabled=false", "application/x-www-form-urlencoded"),
    );
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toContain("That category no longer exists");
    const empty = await withoutWrites(server.database.pool, () => post(`${base}/u/${r.token}`, "", "text/plain"));
    expect(empty.status).toBe(400);
  });

  it("a cross-site form needs the token, so it is no more than the link itself: no cookie is read or set", async () => {
    const r = await recipient();
    const response = await fetch(`${base}/u/${r.token}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", cookie: "herald_session=whatever" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });

  it("production without HERALD_SECRET_KEY: links are off, every token is a 404", async () => {
    const r = await recipient();
    expect((await fetch(`${productionWithoutKey}/u/${r.token}`)).status).toBe(404);
    const response = await withoutWrites(server.database.pool, () =>
      post(`${productionWithoutKey}/u/${r.token}`, "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded"),
    );
    expect(response.status).toBe(404);
  });

  it("end to end: a dispatched email carries List-Unsubscribe (not for a mandatory category), and its link opts out", async () => {
    counter += 1;
    const externalId = `e2e-${counter}`;
    await server.database.pool.query("INSERT INTO herald.users (external_id, email) VALUES ($1, $2)", [externalId, `${externalId}@example.com`]);
    const ingested = await ingestEvents(server.database.pool, [
      { eventId: `promo-${counter}`, type: "promo.email", userId: externalId, data: {} },
      { eventId: `login-${counter}`, type: "login.email", userId: externalId, data: {} },
    ]);
    const ids = ingested.flatMap((r) => r.notifications.map((n) => n.id));
    const provider = new ScriptedProvider("scripted-email", "email");
    await dispatchBatch(
      {
        sql: server.database.pool,
        holdConsent: consentHolds(server.database.pool),
        providers: createProviderRegistry({ email: { primary: provider } }),
        breakers: new BreakerBook(server.database.pool, () => ({ failureThreshold: 3, coolDownMs: 30_000 }), 0),
        policy: async () => ({
          retry: { floorMs: 10_000, baseMs: 10_000, maxAttempts: 3, maxAgeMs: 3_600_000 },
          outageMaxAgeMs: 86_400_000,
          breakerCoolDownMs: 30_000,
          defaultTimezone: "UTC",
        }),
        log: pino({ level: "silent" }),
        emailLinks: createEmailLinks({ sql: server.database.pool, tokens, publicUrl: new URL(base) }),
      },
      "email",
      ids,
      "1",
    );
    const promo = provider.calls.find((m) => m.subject === "Hi")!;
    const login = provider.calls.find((m) => m.subject === "New sign-in")!;
    expect(promo.headers).toEqual({
      "List-Unsubscribe": expect.stringMatching(new RegExp(`^<${base}/u/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}>$`)),
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(promo.headers!["List-Unsubscribe"]).not.toContain("mailto:");
    expect(promo.headers!["List-Unsubscribe"]).not.toContain(externalId);
    expect(login.headers?.["List-Unsubscribe"]).toBeUndefined();

    const link = promo.headers!["List-Unsubscribe"]!.slice(1, -1);
    const response = await post(link, "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded");
    expect(response.status).toBe(200);
    const matrix = await getPreferenceMatrix(server.database.pool, externalId);
    expect(matrix.find((p) => p.category === "marketing" && p.channel === "email")).toMatchObject({ enabled: false, source: "unsubscribe_link" });
    expect(await events(promo.notificationId)).toContainEqual({
      type: "unsubscribed",
      detail: { category: "marketing", channel: "email", via: "one_click", source: "unsubscribe_link" },
    });
  });
});
