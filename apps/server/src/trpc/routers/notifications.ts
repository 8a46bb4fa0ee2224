import { ChannelSchema, ExternalIdSchema, NotificationTypeKeySchema, StatusSchema } from "@herald/core";
import { appendAudit, findNotification, listUserNotifications, resendNotification, type NotificationRecord } from "@herald/db";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { notificationView } from "../../http/rest/notification-view.ts";
import { memberProcedure, router } from "../trpc.ts";

/** The public view plus what only support sees: the address, the content as sent, resend links, raw webhooks. */
function timelineView(n: NotificationRecord) {
  return {
    ...notificationView(n),
    rendered: n.rendered,
    address: n.address,
    resentFromId: n.resentFromId,
    resentAs: n.resentAs,
    webhooks: n.webhooks.map((w) => ({ ...w, receivedAt: w.receivedAt.toISOString() })),
  };
}

const NotificationIdSchema = z.string().regex(/^\d{1,18}$/, "must be a notification id (digits)");

export const notificationsRouter = router({
  /** One user's history, newest first, keyset-paged and filterable, each notification with its event log. */
  userHistory: memberProcedure
    .input(
      z
        .object({
          userId: ExternalIdSchema,
          cursor: z.string().max(200).nullish(),
          limit: z.number().int().min(1).max(100).default(25),
          channel: ChannelSchema.nullish(),
          type: NotificationTypeKeySchema.nullish(),
          status: StatusSchema.nullish(),
          from: z.iso.datetime({ offset: true }).nullish(),
          to: z.iso.datetime({ offset: true }).nullish(),
        })
        .refine((i) => !i.from || !i.to || Date.parse(i.from) < Date.parse(i.to), { message: "must be after from", path: ["to"] }),
    )
    .query(async ({ ctx, input }) => {
      const page = await listUserNotifications(
        ctx.database.pool,
        input.userId,
        { limit: input.limit, cursor: input.cursor ?? null },
        {
          channel: input.channel ?? null,
          type: input.type ?? null,
          status: input.status ?? null,
          from: input.from ? new Date(input.from) : null,
          to: input.to ? new Date(input.to) : null,
        },
      );
      return {
        items: page.items.map(timelineView),
        nextCursor: page.nextCursor,
      };
    }),

  /**
   * Queues a copy of a notification as a new one linked to it. It goes through the pump and the
   * send-time gates like any send: to an opted-out or suppressed user it is skipped. Audit-logged.
   */
  resend: memberProcedure.input(z.object({ id: NotificationIdSchema })).mutation(async ({ ctx, input }) => {
    const original = await findNotification(ctx.database.pool, input.id);
    if (!original || original.userId === null) throw new AppError("NOT_FOUND", `No notification ${input.id} to a user exists`);
    const created = await resendNotification(ctx.database.pool, input.id, ctx.member.email);
    if (!created) throw new AppError("NOT_FOUND", `No notification ${input.id} to a user exists`);
    await appendAudit(ctx.database.prisma, {
      actorMemberId: ctx.member.id,
      actor: ctx.member.email,
      action: "notifications.resend",
      target: `user:${original.userId}`,
      detail: { notificationId: input.id, resendId: created.id, type: original.type, channel: original.channel },
      ip: ctx.ip,
    });
    ctx.nudgePump();
    return { id: created.id, userId: original.userId };
  }),
});
