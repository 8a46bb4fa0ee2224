import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientRoutes } from "../src/http/client/client-routes.ts";
import { restErrorHandler, sendError } from "../src/http/rest-errors.ts";
import type { AppServices } from "../src/trpc/context.ts";
import { clientJwt } from "./support/client-jwt.ts";
import { withoutWrites } from "./support/table-snapshot.ts";
import { useTestServer } from "./support/test-server.ts";

// The client API (docs/client-api.md) over real HTTP: per-user HS256 JWTs, acks, the inbox, CORS.
// Mounted as app.ts mounts it: /api/v1/client, ahead of the API-key router.

const SECRET = "s".repeat(48);
const APP_ORIGIN = "https://app.example.com";

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const jwt = (payload: Record<string, unknown>, header?: Record<string, unknown>, secret = SECRET) => clientJwt(payload, secret, header);
const tokenFor = (userId: string) => `Bearer ${jwt({ sub: userId, exp: Math.floor(Date.now() / 1000) + 600 })}`;

describe("the client API", () => {
  const server = useTestServer({ env: { HERALD_CLIENT_SECRET: SECRET, HERALD_CLIENT_CORS_ORIGINS: `${APP_ORIGIN}, https://other-app.example.com` } });
  const servers: Server[] = [];
  let base: string;
  let offBase: string;
  let counter = 0;

  async function mount(services: AppServices): Promise<string> {
    const app = express();
    app.use("/api/v1/client", clientRoutes(services));
    app.use("/api", (_req, res) => sendError(res, 404, "not_found", "No such API route"));
    app.use(restErrorHandler(services.log));
    const listening = app.listen(0, "127.0.0.1");
    servers.push(listening);
    await new Promise((resolve) => listening.once("listening", resolve));
    return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    const services = server.services;
    base = await mount(services);
    offBase = await mount({ ...services, env: { ...server.env, HERALD_CLIENT_SECRET: undefined } });
    await server.database.pool.query("INSERT INTO herald.categories (key, label) VALUES ('news', 'News')");
  });
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });

  async function call(method: string, path: string, auth: string | null, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${base}/api/v1/client${path}`, {
      method,
      headers: { ...(auth ? { authorization: auth } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : null };
  }

  async function user(): Promise<{ externalId: string; id: string }> {
    counter += 1;
    const externalId = `client-user-${counter}`;
    const { rows } = await server.database.pool.query("INSERT INTO herald.users (external_id) VALUES ($1) RETURNING id::text", [externalId]);
    return { externalId, id: rows[0].id };
  }

  async function notification(
    userId: string,
    options: { status?: string; channel?: string; title?: string; body?: string; readAt?: Date; createdAt?: Date } = {},
  ): Promise<string> {
    counter += 1;
    const status = options.status ?? "sent";
    const { rows } = await server.database.pool.query(
      `INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, status, dispatch_state, content, rendered, read_at, created_at, sent_at)
       VALUES ($1, $2, 'news.push', $3, 'news', $4, $5, '{"body": "x"}', $6::jsonb, $7, $8, CASE WHEN $4 IN ('sent', 'delivered') THEN now() END)
       RETURNING id::text`,
      [
        `n-${counter}`,
        userId,
        options.channel ?? "push",
        status,
        status === "pending" ? "queued" : "done",
        JSON.stringify({ title: options.title ?? `Title ${counter}`, body: options.body ?? `Body ${counter}` }),
        options.readAt ?? null,
        options.createdAt ?? new Date(),
      ],
    );
    return rows[0].id;
  }

  async function row(id: string) {
    const { rows } = await server.database.pool.query(
      "SELECT status, delivered_at, opened_at, read_at, (SELECT count(*)::int FROM herald.notification_events e WHERE e.notification_id = n.id) AS events FROM herald.notifications n WHERE id = $1",
      [id],
    );
    return rows[0];
  }

  describe("acks", () => {
    it("delivered moves sent forward, sets delivered_at once, and logs the first ack only", async () => {
      const alice = await user();
      const id = await notification(alice.id);
      const first = await call("POST", `/notifications/${id}/ack`, tokenFor(alice.externalId), { event: "delivered" });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        notification: { id, status: "delivered", deliveredAt: expect.any(String), openedAt: null, readAt: null },
        changed: true,
      });
      await new Promise((r) => setTimeout(r, 20));
      const second = await call("POST", `/notifications/${id}/ack`, tokenFor(alice.externalId), { event: "delivered" });
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ ...first.body, changed: false });
      const after = await row(id);
      expect(after.delivered_at.toISOString()).toBe(first.body.notification.deliveredAt);
      expect(after.events).toBe(1);
      const { rows } = await server.database.pool.query("SELECT type, detail FROM herald.notification_events WHERE notification_id = $1", [id]);
      expect(rows).toEqual([{ type: "delivered", detail: { source: "client" } }]);
    });

    it("opened and read set their own timestamps once; the first wins", async () => {
      const alice = await user();
      const id = await notification(alice.id, { status: "delivered" });
      const opened = await call("POST", `/notifications/${id}/ack`, tokenFor(alice.externalId), { event: "opened" });
      const read = await call("POST", `/notifications/${id}/ack`, tokenFor(alice.externalId), { event: "read" });
      await new Promise((r) => setTimeout(r, 20));
      const readAgain = await call("POST", `/notifications/${id}/ack`, tokenFor(alice.externalId), { event: "read" });
      expect(opened.body.notification.openedAt).toEqual(expect.any(String));
      expect(read.body.notification).toMatchObject({ status: "delivered", openedAt: opened.body.notification.openedAt, readAt: expect.any(String) });
      expect(readAgain.body).toEqual({ notification: read.body.notification, changed: false });
    });

    it("another user's notification, an unknown id and a non-numeric id answer the same 404 and write nothing", async () => {
      const alice = await user();
      const mallory = await user();
      const id = await notification(alice.id);
      const answers = await withoutWrites(server.database.pool, async () => [
        await call("POST", `/notifications/${id}/ack`, tokenFor(mallory.externalId), { event: "read" }),
        await call("POST", "/notifications/999999999/ack", tokenFor(mallory.externalId), { event: "read" }),
        await call("POST", "/notifications/abc/ack", tokenFor(mallory.externalId), { event: "read" }),
        await call("POST", "/notifications/1e3/ack", tokenFor(mallory.externalId), { event: "read" }),
        await call("POST", `/notifications/${id}/ack`, tokenFor("never-seen-user"), { event: "read" }),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBe(404);
        expect(answer.text).toBe(answers[0]!.text);
      }
      expect(answers[0]!.body).toEqual({ error: { code: "not_found", message: "No such notification" } });
    });

    it("never revives a pending, failed, bounced, skipped, dead or canceled row", async () => {
      const alice = await user();
      for (const status of ["pending", "failed", "bounced", "skipped", "dead", "canceled"]) {
        const id = await notification(alice.id, { status });
        const before = await row(id);
        for (const event of ["delivered", "opened", "read"]) {
          const answer = await call("POST", `/notifications/${id}/ack`, tokenFor(alice.externalId), { event });
          expect(answer.status, `${event} on ${status}`).toBe(200);
          expect(answer.body).toMatchObject({ notification: { status }, changed: false });
        }
        expect(await row(id), status).toEqual(before);
      }
    });

    it("validates the body: 400 naming the field, 415 for a non-JSON body", async () => {
      const alice = await user();
      const id = await notification(alice.id);
      const bad = await call("POST", `/notifications/${id}/ack`, tokenFor(alice.externalId), { event: "clicked" });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: "invalid_request", details: { fields: [{ path: "event" }] } });
      const extra = await call("POST", `/notifications/${id}/ack`, tokenFor(alice.externalId), { event: "read", at: "now" });
      expect(extra.status).toBe(400);
      const form = await fetch(`${base}/api/v1/client/notifications/${id}/ack`, {
        method: "POST",
        headers: { authorization: tokenFor(alice.externalId), "content-type": "application/x-www-form-urlencoded" },
        body: "event=read",
      });
      expect(form.status).toBe(415);
    });
  });

  describe("client tokens", () => {
    it.each([
      ["no Authorization header", null],
      ["alg none", `Bearer ${b64({ alg: "none", typ: "JWT" })}.${b64({ sub: "u", exp: Math.floor(Date.now() / 1000) + 60 })}.`],
      ["alg none with a signature", `Bearer ${jwt({ sub: "u", exp: Math.floor(Date.now() / 1000) + 60 }, { alg: "none" })}`],
      ["RS256", `Bearer ${jwt({ sub: "u", exp: Math.floor(Date.now() / 1000) + 60 }, { alg: "RS256" })}`],
      ["HS384", `Bearer ${jwt({ sub: "u", exp: Math.floor(Date.now() / 1000) + 60 }, { alg: "HS384" })}`],
      ["an expired token", `Bearer ${jwt({ sub: "u", exp: Math.floor(Date.now() / 1000) - 3600 })}`],
      ["a token without exp", `Bearer ${jwt({ sub: "u" })}`],
      ["a token 2 days long", `Bearer ${jwt({ sub: "u", exp: Math.floor(Date.now() / 1000) + 2 * 86400 })}`],
      ["a token signed with another secret", `Bearer ${jwt({ sub: "u", exp: Math.floor(Date.now() / 1000) + 60 }, undefined, "z".repeat(48))}`],
      ["a Basic header", `Basic ${Buffer.from("u:p").toString("base64")}`],
    ])("refuses %s with 401", async (_name, auth) => {
      const answer = await call("GET", "/notifications", auth);
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe("unauthorized");
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
    });

    it("every client route is a 404 when HERALD_CLIENT_SECRET is unset, token or not", async () => {
      for (const [method, path] of [["GET", "/notifications"], ["POST", "/notifications/read-all"], ["POST", "/notifications/1/ack"], ["OPTIONS", "/notifications"]] as const) {
        const response = await fetch(`${offBase}/api/v1/client${path}`, { method, headers: { authorization: tokenFor("u"), origin: APP_ORIGIN } });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(await response.json()).toEqual({ error: { code: "not_found", message: "No such API route" } });
        expect(response.headers.get("access-control-allow-origin")).toBeNull();
      }
    });
  });

  describe("CORS", () => {
    it("answers a preflight from a listed origin, allowing Authorization and Content-Type without credentials", async () => {
      const response = await fetch(`${base}/api/v1/client/notifications/1/ack`, {
        method: "OPTIONS",
        headers: { origin: APP_ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
      expect(response.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type");
      expect(response.headers.get("access-control-allow-methods")).toBe("GET, POST");
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
      expect(response.headers.get("vary")).toMatch(/Origin/);
    });

    it("gives another origin no Access-Control-Allow-Origin, on preflights and on requests", async () => {
      const preflight = await fetch(`${base}/api/v1/client/notifications`, {
        method: "OPTIONS",
        headers: { origin: "https://evil.example", "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
      });
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
      expect(preflight.headers.get("access-control-allow-headers")).toBeNull();
      const alice = await user();
      const other = await call("GET", "/notifications", tokenFor(alice.externalId), undefined, { origin: "https://evil.example" });
      expect(other.status).toBe(200);
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
      const listed = await call("GET", "/notifications", tokenFor(alice.externalId), undefined, { origin: "https://other-app.example.com" });
      expect(listed.headers.get("access-control-allow-origin")).toBe("https://other-app.example.com");
      const refused = await call("GET", "/notifications", null, undefined, { origin: APP_ORIGIN });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    });
  });

  describe("the inbox", () => {
    it("lists the user's sent and delivered notifications, newest first, paged, with the unread count", async () => {
      const alice = await user();
      const bob = await user();
      const t = (minutes: number) => new Date(Date.now() - minutes * 60_000);
      const oldest = await notification(alice.id, { createdAt: t(30), title: "Oldest", body: "One" });
      const read = await notification(alice.id, { status: "delivered", createdAt: t(20), readAt: t(19), title: "Read" });
      const email = await notification(alice.id, { channel: "email", createdAt: t(10), title: "Email" });
      await notification(alice.id, { status: "pending", createdAt: t(5) });
      await notification(alice.id, { status: "dead", createdAt: t(4) });
      await notification(alice.id, { status: "skipped", createdAt: t(3) });
      await notification(bob.id, { createdAt: t(2) });

      const first = await call("GET", "/notifications?limit=2", tokenFor(alice.externalId));
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        items: [
          { id: email, type: "news.push", channel: "email", category: "news", status: "sent", title: "Email", body: expect.any(String), createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/), readAt: null },
          { id: read, type: "news.push", channel: "push", category: "news", status: "delivered", title: "Read", body: expect.any(String), createdAt: expect.any(String), readAt: expect.any(String) },
        ],
        nextCursor: expect.any(String),
        unreadCount: 2,
      });
      const second = await call("GET", `/notifications?limit=2&cursor=${first.body.nextCursor}`, tokenFor(alice.externalId));
      expect(second.body.items.map((i: { id: string; title: string; body: string }) => [i.id, i.title, i.body])).toEqual([[oldest, "Oldest", "One"]]);
      expect(second.body.nextCursor).toBeNull();

      const pushOnly = await call("GET", "/notifications?channel=push", tokenFor(alice.externalId));
      expect(pushOnly.body.items.map((i: { id: string }) => i.id)).toEqual([read, oldest]);
      expect(pushOnly.body.unreadCount).toBe(1);

      const bad = await call("GET", "/notifications?limit=1000", tokenFor(alice.externalId));
      expect(bad.status).toBe(400);
    });

    it("read-all marks every unread entry read once, and only the caller's", async () => {
      const alice = await user();
      const bob = await user();
      const earlier = new Date(Date.now() - 3_600_000);
      const unreadA = await notification(alice.id);
      const unreadB = await notification(alice.id, { status: "delivered" });
      const alreadyRead = await notification(alice.id, { readAt: earlier });
      const pending = await notification(alice.id, { status: "pending" });
      const bobs = await notification(bob.id);

      const answer = await call("POST", "/notifications/read-all", tokenFor(alice.externalId));
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ updated: 2 });
      expect((await row(unreadA)).read_at).not.toBeNull();
      expect((await row(unreadB)).read_at).not.toBeNull();
      expect((await row(alreadyRead)).read_at).toEqual(earlier);
      expect((await row(pending)).read_at).toBeNull();
      expect((await row(bobs)).read_at).toBeNull();
      expect((await call("GET", "/notifications", tokenFor(alice.externalId))).body.unreadCount).toBe(0);
      expect((await call("POST", "/notifications/read-all", tokenFor(alice.externalId))).body).toEqual({ updated: 0 });
    });
  });
});
