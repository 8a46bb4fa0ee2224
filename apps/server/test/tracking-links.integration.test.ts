import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { ClaimedNotification, GateVerdict } from "@herald/db";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMessage } from "../src/dispatch/render-message.ts";
import { PIXEL_GIF, trackingRoutes } from "../src/http/links/tracking-routes.ts";
import { restErrorHandler } from "../src/http/rest-errors.ts";
import { createEmailLinks } from "../src/links/email-links.ts";
import { createLinkTokens } from "../src/links/link-tokens.ts";
import { withoutWrites } from "./support/table-snapshot.ts";
import { useTestServer } from "./support/test-server.ts";

// Opt-in open and click tracking (docs/unsubscribe-and-tracking.md): the email rewrites, the
// pixel and the redirect, over real HTTP.

const SECRET_KEY = "t".repeat(48);
const PUBLIC = "https://herald.example.com/notify";
const APPLE_MPP = "Mozilla/5.0";
const GOOGLE_PROXY = "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)";
const READER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)";

describe("engagement tracking", () => {
  const server = useTestServer({ env: { HERALD_SECRET_KEY: SECRET_KEY } });
  const tokens = createLinkTokens(SECRET_KEY);
  let base: string;
  let listening: Server;
  let counter = 0;

  beforeAll(async () => {
    const services = server.services;
    const app = express();
    app.use(trackingRoutes(services));
    app.use(restErrorHandler(services.log));
    listening = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => listening.once("listening", resolve));
    base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    await server.database.pool.query(`
      INSERT INTO herald.categories (key, label, mandatory, tracking) VALUES
        ('promo', 'Promotions', false, '{"opens": true, "clicks": true}'),
        ('opens-only', 'Opens only', false, '{"opens": true}'),
        ('plain', 'Plain', false, '{}'),
        ('security', 'Security', true, '{"opens": true, "clicks": true}');`);
  });
  afterAll(async () => {
    listening.closeAllConnections();
    await new Promise((resolve) => listening.close(resolve));
  });

  async function email(category: string): Promise<string> {
    counter += 1;
    const { rows } = await server.database.pool.query(
      `INSERT INTO herald.notifications (dedup_key, type, channel, category, status, dispatch_state, content)
       VALUES ($1, 'x.email', 'email', $2, 'delivered', 'done', '{"body": "x"}') RETURNING id::text`,
      [`track-${counter}`, category],
    );
    return rows[0].id;
  }

  async function row(id: string) {
    const { rows } = await server.database.pool.query("SELECT status, opened_at, clicked_at FROM herald.notifications WHERE id = $1", [id]);
    const { rows: events } = await server.database.pool.query("SELECT type, detail FROM herald.notification_events WHERE notification_id = $1 ORDER BY id", [id]);
    return { ...rows[0], events };
  }

  const pixel = (token: string, userAgent = READER) => fetch(`${base}/t/o/${token}.gif`, { headers: { "user-agent": userAgent } });

  describe("the open pixel", () => {
    it("answers a 43-byte GIF, never cached; the first open sets opened_at, every open is logged", async () => {
      const id = await email("promo");
      const token = tokens.sign("open", { n: id });
      const first = await pixel(token);
      expect(first.status).toBe(200);
      expect(first.headers.get("content-type")).toBe("image/gif");
      expect(first.headers.get("cache-control")).toContain("no-store");
      const bytes = Buffer.from(await first.arrayBuffer());
      expect(bytes).toEqual(PIXEL_GIF);
      expect(bytes.length).toBe(43);
      const opened = (await row(id)).opened_at;
      expect(opened).not.toBeNull();
      await new Promise((r) => setTimeout(r, 20));
      await pixel(token);
      const after = await row(id);
      expect(after.opened_at).toEqual(opened);
      expect(after.status).toBe("delivered");
      expect(after.events).toEqual([
        { type: "opened", detail: {} },
        { type: "opened", detail: {} },
      ]);
    });

    it("an Apple MPP prefetch is logged and flagged but does not set opened_at; a later real open does", async () => {
      const id = await email("promo");
      const token = tokens.sign("open", { n: id });
      expect((await pixel(token, APPLE_MPP)).status).toBe(200);
      expect(await row(id)).toMatchObject({ opened_at: null, events: [{ type: "opened", detail: { proxy: "apple_mpp", prefetch: true } }] });
      await pixel(token, READER);
      expect((await row(id)).opened_at).not.toBeNull();
    });

    it("Google's image proxy fetches when the reader opens: flagged, and it counts as the open", async () => {
      const id = await email("promo");
      await pixel(tokens.sign("open", { n: id }), GOOGLE_PROXY);
      const after = await row(id);
      expect(after.opened_at).not.toBeNull();
      expect(after.events).toEqual([{ type: "opened", detail: { proxy: "google_image_proxy", prefetch: false } }]);
    });

    it("answers the GIF for a bad token too, and writes nothing", async () => {
      const id = await email("promo");
      const token = tokens.sign("open", { n: id });
      for (const path of [`${token.slice(0, -1)}A.gif`, "garbage.gif", `${tokens.sign("click", { n: id, url: "https://a.example/" })}.gif`, token]) {
        const response = await withoutWrites(server.database.pool, () => fetch(`${base}/t/o/${path}`));
        expect(response.status).toBe(200);
        expect(Buffer.from(await response.arrayBuffer())).toEqual(PIXEL_GIF);
      }
    });

    it("writes nothing for a category that does not (or no longer) track opens", async () => {
      const id = await email("plain");
      const response = await withoutWrites(server.database.pool, () => pixel(tokens.sign("open", { n: id })));
      expect(response.status).toBe(200);
    });
  });

  describe("click redirects", () => {
    it("302s to the signed URL only, records the click once per first click and logs each", async () => {
      const id = await email("promo");
      const url = "https://shop.example.com/sale?utm_source=email&x=1#top";
      const token = tokens.sign("click", { n: id, url });
      const response = await fetch(`${base}/t/c/${token}`, { redirect: "manual" });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(url);
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      const clicked = (await row(id)).clicked_at;
      expect(clicked).not.toBeNull();
      await fetch(`${base}/t/c/${token}`, { redirect: "manual" });
      const after = await row(id);
      expect(after.clicked_at).toEqual(clicked);
      expect(after.opened_at).toBeNull();
      expect(after.events).toEqual([
        { type: "clicked", detail: { url } },
        { type: "clicked", detail: { url } },
      ]);
    });

    it("a tampered token is a 404 without a Location header, and writes nothing", async () => {
      const id = await email("promo");
      const token = tokens.sign("click", { n: id, url: "https://shop.example.com/" });
      const [, signature] = token.split(".") as [string, string];
      const evil = Buffer.from(JSON.stringify({ n: id, url: "https://evil.example/" })).toString("base64url");
      for (const bad of [`${evil}.${signature}`, `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, "nope", tokens.sign("open", { n: id })]) {
        const response = await withoutWrites(server.database.pool, () => fetch(`${base}/t/c/${bad}`, { redirect: "manual" }));
        expect(response.status).toBe(404);
        expect(response.headers.get("location")).toBeNull();
      }
    });

    it("still redirects when the category stopped tracking clicks, recording nothing", async () => {
      const id = await email("plain");
      const response = await withoutWrites(server.database.pool, () =>
        fetch(`${base}/t/c/${tokens.sign("click", { n: id, url: "https://docs.example.com/" })}`, { redirect: "manual" }),
      );
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("https://docs.example.com/");
    });
  });

  describe("the email render", () => {
    const verdict: GateVerdict = { verdict: "send", reason: null, deferUntil: null, address: "ada@example.com", tokens: null, detail: {} };
    const html = `<html><body>
<p>Hi <a href="https://shop.example.com/sale?a=1&amp;b=2">our sale</a>, <a class="x" href="http://blog.example.com/post">blog</a>,
<a href="mailto:help@example.com">mail us</a>, <a href="#top">top</a>, <a href="${PUBLIC}/u/already">manage</a>.</p>
<img src="https://cdn.example.com/logo.png" alt="logo" />
</body></html>`;

    const noTemplates = () => undefined;

    function claimed(category: string, overrides: Partial<ClaimedNotification> = {}): ClaimedNotification {
      counter += 1;
      return {
        id: String(9000 + counter),
        userId: "42",
        externalUserId: "ada",
        type: "x.email",
        channel: "email",
        category,
        lane: "bulk",
        content: { subject: "Sale", body: "Plain body https://shop.example.com/", html },
        templateKey: null,
        templateVersion: null,
        locale: null,
        vars: {},
        attemptCount: 0,
        firstAttemptAt: null,
        deferredMs: 0,
        outageSince: null,
        createdAt: new Date(),
        user: { email: "ada@example.com", phone: null, locale: null, timezone: null, attributes: {} },
        ...overrides,
      };
    }

    async function render(n: ClaimedNotification, links = createEmailLinks({ sql: server.database.pool, tokens, publicUrl: new URL(PUBLIC) })) {
      const outcome = renderMessage(n, verdict, noTemplates, await links.forBatch([n]));
      if (!outcome.ok) throw new Error(outcome.reason);
      return outcome;
    }

    it("a non-mandatory category gets List-Unsubscribe + List-Unsubscribe-Post with an https link under the public URL", async () => {
      const n = claimed("plain");
      const { message, rendered } = await render(n);
      expect(message.headers).toEqual({
        "List-Unsubscribe": expect.stringMatching(/^<https:\/\/herald\.example\.com\/notify\/u\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}>$/),
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      });
      const token = /\/u\/([^>]+)>$/.exec(message.headers!["List-Unsubscribe"]!)![1]!;
      expect(tokens.verify("unsubscribe", token)).toEqual({ n: n.id, u: "42", c: "plain", ch: "email" });
      // Tracking is off for this category: the HTML is the rendered HTML, untouched.
      expect(message.html).toBe(html);
      expect(rendered.html).toBe(html);
    });

    it("a mandatory category gets no List-Unsubscribe", async () => {
      const { message } = await render(claimed("security"));
      expect(message.headers?.["List-Unsubscribe"]).toBeUndefined();
      expect(message.headers?.["List-Unsubscribe-Post"]).toBeUndefined();
    });

    it("an opted-in category rewrites http(s) anchors to signed click links and adds the pixel before </body>", async () => {
      const n = claimed("promo");
      const { message, rendered } = await render(n);
      const out = message.html!;
      const clicks = [...out.matchAll(/href="(https:\/\/herald\.example\.com\/notify\/t\/c\/([^"]+))"/g)].map((m) => tokens.verify("click", m[2]!));
      expect(clicks).toEqual([
        { n: n.id, url: "https://shop.example.com/sale?a=1&b=2" },
        { n: n.id, url: "http://blog.example.com/post" },
      ]);
      expect(out).toContain('href="mailto:help@example.com"');
      expect(out).toContain('href="#top"');
      expect(out).toContain(`href="${PUBLIC}/u/already"`);
      expect(out).toContain('<img src="https://cdn.example.com/logo.png" alt="logo" />');
      expect(out).toMatch(/<img src="https:\/\/herald\.example\.com\/notify\/t\/o\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}\.gif" width="1" height="1" alt=""[^>]*\/><\/body><\/html>$/);
      const openToken = /\/t\/o\/([^"]+)\.gif"/.exec(out)![1]!;
      expect(tokens.verify("open", openToken)).toEqual({ n: n.id });
      // The plain-text body and what the timeline stores stay as rendered.
      expect(message.body).toBe("Plain body https://shop.example.com/");
      expect(rendered.html).toBe(html);
      expect(message.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    });

    it("opens only: the pixel, no rewritten links; HTML without </body> gets the pixel at the end", async () => {
      const { message } = await render(claimed("opens-only", { content: { subject: "S", body: "B", html: '<p><a href="https://a.example/">a</a></p>' } }));
      expect(message.html).toMatch(/^<p><a href="https:\/\/a\.example\/">a<\/a><\/p><img src="[^"]+\/t\/o\/[^"]+\.gif"[^>]*\/>$/);
    });

    it("links are off without a key in production: no headers, no rewrites", async () => {
      const { message } = await render(claimed("promo"), createEmailLinks({ sql: server.database.pool, tokens: null, publicUrl: new URL(PUBLIC) }));
      expect(message.headers).toBeUndefined();
      expect(message.html).toBe(html);
    });

    it("other channels, unknown categories and a render without links pass unchanged", async () => {
      const push = await render(claimed("promo", { channel: "push", content: { title: "T", body: "B" } }));
      expect(push.message.headers).toBeUndefined();
      const unknown = await render(claimed("no-such-category"));
      expect(unknown.message.headers).toBeUndefined();
      const bare = renderMessage(claimed("promo"), verdict, noTemplates);
      expect(bare.ok && bare.message.headers).toBeUndefined();
    });

    it("a category's flags are cached briefly: a change applies once the cache expires", async () => {
      let clock = 0;
      const links = createEmailLinks({ sql: server.database.pool, tokens, publicUrl: new URL(PUBLIC), cacheMs: 30_000, now: () => clock });
      await server.database.pool.query("INSERT INTO herald.categories (key, label) VALUES ('flip', 'Flip')");
      expect((await render(claimed("flip"), links)).message.headers?.["List-Unsubscribe"]).toBeDefined();
      await server.database.pool.query("UPDATE herald.categories SET mandatory = true WHERE key = 'flip'");
      clock = 29_000;
      expect((await render(claimed("flip"), links)).message.headers?.["List-Unsubscribe"]).toBeDefined();
      clock = 30_000;
      expect((await render(claimed("flip"), links)).message.headers?.["List-Unsubscribe"]).toBeUndefined();
    });
  });
});
