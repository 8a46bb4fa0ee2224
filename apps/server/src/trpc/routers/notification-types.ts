import { NotificationTypeInputSchema, NotificationTypeKeySchema } from "@herald/core";
import { findNotificationType, listNotificationTypes, type NotificationTypeRecord } from "@herald/db";
import { z } from "zod";
import { removeNotificationType, saveNotificationType } from "../../config/notification-type-changes.ts";
import { AppError } from "../../errors.ts";
import { memberProcedure, router } from "../trpc.ts";
import { configActor } from "./config-actor.ts";

function typeView(t: NotificationTypeRecord) {
  return { type: t.type, channels: t.channels, updatedAt: t.updatedAt.toISOString() };
}

// Flat like the REST body (plus its key), so a bad field has the same path and words in both.
const NotificationTypeUpsertSchema = z.strictObject({ type: NotificationTypeKeySchema, ...NotificationTypeInputSchema.shape });

export const notificationTypesRouter = router({
  list: memberProcedure.query(async ({ ctx }) => ({ notificationTypes: (await listNotificationTypes(ctx.database.pool)).map(typeView) })),

  get: memberProcedure.input(z.strictObject({ type: NotificationTypeKeySchema })).query(async ({ ctx, input }) => {
    const found = await findNotificationType(ctx.database.pool, input.type);
    if (!found) throw new AppError("NOT_FOUND", `There is no notification type "${input.type}"`);
    return { notificationType: typeView(found) };
  }),

  upsert: memberProcedure.input(NotificationTypeUpsertSchema).mutation(async ({ ctx, input }) => {
    const { type, ...steps } = input;
    const saved = await saveNotificationType(ctx.database, configActor(ctx), type, steps);
    return { notificationType: typeView(saved.record), created: saved.created };
  }),

  delete: memberProcedure.input(z.strictObject({ type: NotificationTypeKeySchema })).mutation(async ({ ctx, input }) => {
    await removeNotificationType(ctx.database, configActor(ctx), input.type);
    return { deleted: input.type };
  }),
});
