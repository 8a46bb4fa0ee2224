import { ChannelSchema } from "@herald/core";
import { ackNotification, listInbox, markInboxRead } from "@herald/db";
import express, { type RequestHandler, type Response, type Router } from "express";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import type { AppServices } from "../../trpc/context.ts";
import { sendError } from "../rest-errors.ts";
import { jsonBody, parseOrThrow } from "../rest/validate.ts";
import { clientCors, parseCorsOrigins } from "./client-cors.ts";
import { CLIENT_TOKEN_MESSAGES, verifyClientToken } from "./client-token.ts";

const AckSchema = z.strictObject({ event: z.enum(["delivered", "opened", "read"]) });
const InboxQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
  channel: ChannelSchema.optional(),
});
const ChannelQuerySchema = z.object({ channel: ChannelSchema.optional() });

const json = express.json({ limit: "4kb" });

/** Every miss answers this same body: another user's notification is indistinguishable from none. */
const noSuchNotification = () => new AppError("NOT_FOUND", "No such notification", { apiCode: "not_found" });

/**
 * /api/v1/client: what a recipient's own app calls, with a per-user HS256 JWT the customer's
 * backend mints (docs/client-api.md). Off (404 everywhere) without HERALD_CLIENT_SECRET. Mount
 * it before the API-key router, which would otherwise claim /api/v1/client.
 */
export function clientRoutes(services: AppServices): Router {
  const router = express.Router();
  const { env, log } = services;
  const secret = env.HERALD_CLIENT_SECRET;
  if (!secret) {
    log.info("the client API (/api/v1/client) is off: HERALD_CLIENT_SECRET is not set");
    router.use((_req, res) => sendError(res, 404, "not_found", "No such API route"));
    return router;
  }
  const sql = services.database.pool;
  router.use(clientCors(parseCorsOrigins(env.HERALD_CLIENT_CORS_ORIGINS, log)));
  router.use(clientAuth(secret));

  router.post("/notifications/:id/ack", json, async (req, res) => {
    const body = parseOrThrow(AckSchema, jsonBody(req));
    const raw = String(req.params.id);
    // An unparseable id still runs the one statement (with an id no row has), so it answers
    // exactly like another user's or an unknown notification.
    const id = /^[1-9]\d{0,17}$/.test(raw) ? raw : "0";
    const result = await ackNotification(sql, clientUserOf(res), id, body.event);
    if (!result) throw noSuchNotification();
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    res.json({
      notification: { id: result.id, status: result.status, deliveredAt: iso(result.deliveredAt), openedAt: iso(result.openedAt), readAt: iso(result.readAt) },
      changed: result.changed,
    });
  });

  router.get("/notifications", async (req, res) => {
    const query = parseOrThrow(InboxQuerySchema, req.query);
    const page = await listInbox(sql, clientUserOf(res), { limit: query.limit, cursor: query.cursor ?? null, channel: query.channel ?? null });
    res.json({
      items: page.items.map((n) => ({
        id: n.id,
        type: n.type,
        channel: n.channel,
        category: n.category,
        status: n.status,
        title: n.title,
        body: n.body,
        createdAt: n.createdAt.toISOString(),
        readAt: n.readAt?.toISOString() ?? null,
      })),
      nextCursor: page.nextCursor,
      unreadCount: page.unreadCount,
    });
  });

  router.post("/notifications/read-all", async (req, res) => {
    const query = parseOrThrow(ChannelQuerySchema, req.query);
    res.json({ updated: await markInboxRead(sql, clientUserOf(res), query.channel ?? null) });
  });

  router.use((_req, res) => sendError(res, 404, "not_found", "No such API route"));
  return router;
}

function clientAuth(secret: string): RequestHandler {
  return (req, res, next) => {
    const header = req.get("authorization") ?? "";
    const token = /^Bearer [^\s]+$/.test(header) ? header.slice(7) : "";
    const refuse = (message: string) => {
      res.setHeader("WWW-Authenticate", 'Bearer error="invalid_token"');
      sendError(res, 401, "unauthorized", message);
    };
    if (!token) return refuse("A client token is required: Authorization: Bearer <JWT signed with HERALD_CLIENT_SECRET>");
    const verified = verifyClientToken(token, secret, Date.now());
    if (!verified.ok) return refuse(CLIENT_TOKEN_MESSAGES[verified.problem]);
    res.locals.clientUserId = verified.userId;
    next();
  };
}

function clientUserOf(res: Response): string {
  const id = res.locals.clientUserId as string | undefined;
  if (!id) throw new Error("client route mounted without clientAuth");
  return id;
}
