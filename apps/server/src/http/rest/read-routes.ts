import { findNotification, listSandboxMessages } from "@herald/db";
import express, { type Router } from "express";
import { AppError } from "../../errors.ts";
import type { AppServices } from "../../trpc/context.ts";
import { notificationView } from "./notification-view.ts";
import { requireScope } from "./rest-context.ts";
import { SandboxQuerySchema } from "./schemas.ts";
import { parseOrThrow } from "./validate.ts";

/** One notification with its log, and the sandbox's outbox (read keys). */
export function readRoutes(services: AppServices): Router {
  const router = express.Router();
  const sql = services.database.pool;

  router.get("/notifications/:id", requireScope("read"), async (req, res) => {
    const found = await findNotification(sql, String(req.params.id));
    if (!found) throw new AppError("NOT_FOUND", `There is no notification ${req.params.id}`, { apiCode: "not_found" });
    res.json(notificationView(found));
  });

  router.get("/sandbox/messages", requireScope("read"), async (req, res) => {
    const query = parseOrThrow(SandboxQuerySchema, req.query);
    const items = await listSandboxMessages(sql, { to: query.to ?? null, channel: query.channel ?? null, limit: query.limit });
    res.json({
      items: items.map((m) => ({
        id: m.id,
        notificationId: m.notificationId,
        channel: m.channel,
        to: m.recipient,
        subject: m.subject ?? undefined,
        title: m.title ?? undefined,
        body: m.body,
        headers: m.headers ?? undefined,
        data: m.data ?? undefined,
        at: m.createdAt.toISOString(),
      })),
    });
  });

  return router;
}
