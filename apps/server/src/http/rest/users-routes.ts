import { PreferenceInputSchema, QuietHoursInputSchema } from "@herald/core";
import {
  deactivateDevice,
  eraseUser,
  getPreferenceMatrix,
  listUserNotifications,
  recordActivity,
  registerDevice,
  setPreferences,
  setQuietHours,
  upsertUser,
  type UserRecord,
} from "@herald/db";
import express, { type Router } from "express";
import { AppError } from "../../errors.ts";
import type { AppServices } from "../../trpc/context.ts";
import { notificationView } from "./notification-view.ts";
import { apiKeyOf, requireScope } from "./rest-context.ts";
import { ActivitySchema, CursorQuerySchema, DeviceSchema, UserIdParamSchema, UserPatchSchema } from "./schemas.ts";
import { jsonBody, parseOrThrow } from "./validate.ts";

const json = express.json({ limit: "1mb" });
// Quiet hours accept a bare `null` (remove them), which body-parser's strict mode refuses.
const jsonOrNull = express.json({ limit: "1mb", strict: false });

function userView(user: UserRecord) {
  return {
    id: user.externalId,
    email: user.email,
    phone: user.phone,
    timezone: user.timezone,
    locale: user.locale,
    attributes: user.attributes,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

/** Users, devices, activities, preferences and quiet hours; the recipient's own history. */
export function userRoutes(services: AppServices): Router {
  const router = express.Router();
  const sql = services.database.pool;
  const userId = (raw: unknown) => parseOrThrow(UserIdParamSchema, raw, "userId");

  router.put("/users/:userId", json, requireScope("events"), async (req, res) => {
    const id = userId(req.params.userId);
    const patch = parseOrThrow(UserPatchSchema, jsonBody(req));
    res.json({ user: userView(await upsertUser(sql, id, patch)) });
  });

  router.post("/users/:userId/devices", json, requireScope("events"), async (req, res) => {
    const id = userId(req.params.userId);
    const body = parseOrThrow(DeviceSchema, jsonBody(req));
    const { device, created } = await registerDevice(sql, id, body.token, body.platform);
    res.status(created ? 201 : 200).json({
      device: { ...device, createdAt: device.createdAt.toISOString(), updatedAt: device.updatedAt.toISOString(), deactivatedAt: device.deactivatedAt?.toISOString() ?? null },
    });
  });

  router.delete("/users/:userId/devices/:token", requireScope("events"), async (req, res) => {
    const id = userId(req.params.userId);
    const token = parseOrThrow(DeviceSchema.shape.token, req.params.token, "token");
    if (!(await deactivateDevice(sql, id, token, "unregistered_by_client"))) {
      throw new AppError("NOT_FOUND", "This user has no such device token", { apiCode: "not_found" });
    }
    res.status(204).end();
  });

  router.post("/users/:userId/activities", json, requireScope("events"), async (req, res) => {
    const id = userId(req.params.userId);
    const activity = parseOrThrow(ActivitySchema, jsonBody(req));
    const recorded = await recordActivity(sql, id, activity);
    res.status(202).json({ recorded });
  });

  router.get("/users/:userId/preferences", requireScope("events"), async (req, res) => {
    res.json({ preferences: preferenceView(await getPreferenceMatrix(sql, userId(req.params.userId))) });
  });

  router.put("/users/:userId/preferences", json, requireScope("events"), async (req, res) => {
    const id = userId(req.params.userId);
    const body = parseOrThrow(PreferenceInputSchema, jsonBody(req));
    const result = await setPreferences(sql, id, body.preferences, "api");
    if (result.kind === "unknown_category") {
      throw new AppError("UNPROCESSABLE", `Unknown categor${result.categories.length > 1 ? "ies" : "y"}: ${result.categories.join(", ")}`, {
        apiCode: "unknown_category",
        details: { categories: result.categories },
      });
    }
    if (result.kind === "mandatory_category") {
      throw new AppError("UNPROCESSABLE", `Mandatory categories cannot be switched off: ${result.categories.join(", ")}`, {
        apiCode: "mandatory_category",
        details: { categories: result.categories },
      });
    }
    res.json({ preferences: preferenceView(await getPreferenceMatrix(sql, id)) });
  });

  router.put("/users/:userId/quiet-hours", jsonOrNull, requireScope("events"), async (req, res) => {
    const id = userId(req.params.userId);
    const body = parseOrThrow(QuietHoursInputSchema, jsonBody(req));
    await setQuietHours(sql, id, body ?? null);
    res.json({ quietHours: body ?? null });
  });

  // Erasure (right to be forgotten): 200 with what was done, or { erased: false } when no user
  // has the id, so a retried request answers the same way twice (docs/data-lifecycle.md).
  router.delete("/users/:userId", requireScope("admin"), async (req, res) => {
    const id = userId(req.params.userId);
    const key = apiKeyOf(res);
    const summary = await eraseUser(sql, id, { memberId: null, actor: `api-key:${key.prefix}`, ip: req.ip ?? null });
    res.json(summary ? { erased: true, ...summary } : { erased: false });
  });

  router.get("/users/:userId/notifications", requireScope("read"), async (req, res) => {
    const id = userId(req.params.userId);
    const query = parseOrThrow(CursorQuerySchema, req.query);
    const page = await listUserNotifications(sql, id, { limit: query.limit, cursor: query.cursor ?? null });
    res.json({ items: page.items.map(notificationView), nextCursor: page.nextCursor });
  });

  return router;
}

function preferenceView(matrix: Awaited<ReturnType<typeof getPreferenceMatrix>>) {
  return matrix.map((p) => ({ ...p, changedAt: p.changedAt?.toISOString() ?? null }));
}
