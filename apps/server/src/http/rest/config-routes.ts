import { CategoryInputSchema, CategoryKeySchema, NotificationTypeInputSchema, NotificationTypeKeySchema } from "@herald/core";
import { findCategory, findNotificationType, listCategories, listNotificationTypes, type CategoryRecord } from "@herald/db";
import express, { type Request, type Response, type Router } from "express";
import { removeCategory, saveCategory } from "../../config/category-changes.ts";
import type { ConfigActor } from "../../config/config-actor.ts";
import { removeNotificationType, saveNotificationType } from "../../config/notification-type-changes.ts";
import { AppError } from "../../errors.ts";
import type { AppServices } from "../../trpc/context.ts";
import { apiKeyOf, requireScope } from "./rest-context.ts";
import { jsonBody, parseOrThrow } from "./validate.ts";

const json = express.json({ limit: "1mb" });

function categoryView(c: CategoryRecord) {
  return { ...c, updatedAt: c.updatedAt.toISOString() };
}

function actorOf(req: Request, res: Response): ConfigActor {
  return { memberId: null, label: `api_key:${apiKeyOf(res).prefix}…`, ip: req.ip ?? null };
}

/** Configuration as code: categories and notification types (admin keys). */
export function configRoutes(services: AppServices): Router {
  const router = express.Router();
  const sql = services.database.pool;

  router.get("/categories", requireScope("admin"), async (_req, res) => {
    res.json({ categories: (await listCategories(sql)).map(categoryView) });
  });

  router.get("/categories/:key", requireScope("admin"), async (req, res) => {
    const key = parseOrThrow(CategoryKeySchema, req.params.key, "key");
    const category = await findCategory(sql, key);
    if (!category) throw new AppError("NOT_FOUND", `There is no category "${key}"`, { apiCode: "not_found" });
    res.json({ category: categoryView(category) });
  });

  router.put("/categories/:key", json, requireScope("admin"), async (req, res) => {
    const key = parseOrThrow(CategoryKeySchema, req.params.key, "key");
    const input = parseOrThrow(CategoryInputSchema, jsonBody(req));
    const { category } = await saveCategory(services.database, actorOf(req, res), key, input);
    res.status(200).json({ category: categoryView(category) });
  });

  router.delete("/categories/:key", requireScope("admin"), async (req, res) => {
    const key = parseOrThrow(CategoryKeySchema, req.params.key, "key");
    await removeCategory(services.database, actorOf(req, res), key);
    res.status(204).end();
  });

  router.get("/notification-types", requireScope("admin"), async (_req, res) => {
    const types = await listNotificationTypes(sql);
    res.json({ notificationTypes: types.map((t) => ({ ...t, updatedAt: t.updatedAt.toISOString() })) });
  });

  router.get("/notification-types/:type", requireScope("admin"), async (req, res) => {
    const type = parseOrThrow(NotificationTypeKeySchema, req.params.type, "type");
    const found = await findNotificationType(sql, type);
    if (!found) throw new AppError("NOT_FOUND", `There is no notification type "${type}"`, { apiCode: "not_found" });
    res.json({ type: found.type, channels: found.channels, updatedAt: found.updatedAt.toISOString() });
  });

  router.put("/notification-types/:type", json, requireScope("admin"), async (req, res) => {
    const type = parseOrThrow(NotificationTypeKeySchema, req.params.type, "type");
    const input = parseOrThrow(NotificationTypeInputSchema, jsonBody(req));
    const { record, created } = await saveNotificationType(services.database, actorOf(req, res), type, input);
    res.status(created ? 201 : 200).json({ type: record.type, channels: record.channels, updatedAt: record.updatedAt.toISOString() });
  });

  router.delete("/notification-types/:type", requireScope("admin"), async (req, res) => {
    const type = parseOrThrow(NotificationTypeKeySchema, req.params.type, "type");
    await removeNotificationType(services.database, actorOf(req, res), type);
    res.status(204).end();
  });

  return router;
}
