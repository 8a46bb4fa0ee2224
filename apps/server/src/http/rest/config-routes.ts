import { CategoryInputSchema, CategoryKeySchema, NotificationTypeInputSchema, NotificationTypeKeySchema } from "@herald/core";
import {
  findCategory,
  findNotificationType,
  findPublishedTemplateChannels,
  findUnknownCategories,
  listCategories,
  listNotificationTypes,
  upsertCategory,
  upsertNotificationType,
  type CategoryRecord,
} from "@herald/db";
import express, { type Router } from "express";
import { AppError } from "../../errors.ts";
import type { AppServices } from "../../trpc/context.ts";
import { requireScope } from "./rest-context.ts";
import { jsonBody, parseOrThrow } from "./validate.ts";

const json = express.json({ limit: "1mb" });

function categoryView(c: CategoryRecord) {
  return { ...c, updatedAt: c.updatedAt.toISOString() };
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
    const result = await upsertCategory(sql, key, input);
    if (result.kind === "alias_taken") {
      throw new AppError("CONFLICT", `"${result.alias}" already names category "${result.owner}"`, { apiCode: "alias_taken" });
    }
    res.status(200).json({ category: categoryView(result.category) });
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
    const unknown = await findUnknownCategories(sql, input.channels.map((c) => c.category));
    if (unknown.length > 0) {
      throw new AppError("UNPROCESSABLE", `Unknown categor${unknown.length > 1 ? "ies" : "y"}: ${unknown.join(", ")} — create with PUT /api/v1/categories/:key`, {
        apiCode: "unknown_category",
      });
    }
    const templated = input.channels.filter((c) => c.template !== undefined);
    const published = await findPublishedTemplateChannels(sql, templated.map((c) => c.template!));
    for (const step of templated) {
      const channels = published.get(step.template!);
      if (!channels) {
        throw new AppError("UNPROCESSABLE", `Template "${step.template}" does not exist or has no published version: publish it first`, {
          apiCode: "template_not_found",
        });
      }
      if (!channels.includes(step.channel)) {
        throw new AppError("UNPROCESSABLE", `Template "${step.template}" has no ${step.channel} content (it supports ${channels.join(", ")})`, {
          apiCode: "template_not_found",
        });
      }
    }
    const missingSubject = input.channels.find((c) => c.channel === "email" && c.content && !c.content.subject);
    if (missingSubject) {
      throw new AppError("BAD_REQUEST", "channels: an email step needs content.subject", { apiCode: "invalid_request" });
    }
    const { record, created } = await upsertNotificationType(sql, type, input.channels);
    res.status(created ? 201 : 200).json({ type: record.type, channels: record.channels, updatedAt: record.updatedAt.toISOString() });
  });

  return router;
}
