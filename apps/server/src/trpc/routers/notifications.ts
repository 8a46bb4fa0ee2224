import { ExternalIdSchema } from "@herald/core";
import { listUserNotifications } from "@herald/db";
import { z } from "zod";
import { notificationView } from "../../http/rest/notification-view.ts";
import { memberProcedure, router } from "../trpc.ts";

export const notificationsRouter = router({
  /** One user's history, newest first, keyset-paged, each notification with its event log. */
  userHistory: memberProcedure
    .input(z.object({ userId: ExternalIdSchema, cursor: z.string().max(200).nullish(), limit: z.number().int().min(1).max(100).default(25) }))
    .query(async ({ ctx, input }) => {
      const page = await listUserNotifications(ctx.database.pool, input.userId, { limit: input.limit, cursor: input.cursor ?? null });
      return { items: page.items.map((n) => ({ ...notificationView(n), rendered: n.rendered, address: n.address })), nextCursor: page.nextCursor };
    }),
});
