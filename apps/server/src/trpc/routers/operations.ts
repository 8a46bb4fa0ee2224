import { appendAudit, listAlerts, listOpenAlerts, listOrphanWebhookPage, findAlertWebhookSecret, storeAlertWebhookSecret, type AlertRecord } from "@herald/db";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { deliveryOverview } from "../../operations/delivery-overview.ts";
import { SecretBox } from "../../providers/credentials/secret-box.ts";
import { memberProcedure, router } from "../trpc.ts";

const PageSchema = z.object({ cursor: z.string().max(200).nullish(), limit: z.number().int().min(1).max(200).default(50) });

function alertView(a: AlertRecord) {
  return { ...a, raisedAt: a.raisedAt.toISOString(), resolvedAt: a.resolvedAt?.toISOString() ?? null };
}

export const operationsRouter = router({
  /** Backlog and throughput per channel and lane, token bucket, breakers and error codes per provider. */
  overview: memberProcedure.query(({ ctx }) => deliveryOverview(ctx.database.pool)),

  /** Webhooks that matched no notification, newest first. */
  orphanWebhooks: memberProcedure.input(PageSchema).query(async ({ ctx, input }) => {
    const page = await listOrphanWebhookPage(ctx.database.pool, { limit: input.limit, cursor: input.cursor ?? null });
    return { items: page.items.map((w) => ({ ...w, receivedAt: w.receivedAt.toISOString() })), nextCursor: page.nextCursor };
  }),

  openAlerts: memberProcedure.query(async ({ ctx }) => (await listOpenAlerts(ctx.database.pool)).map(alertView)),

  alerts: memberProcedure.input(PageSchema.extend({ cursor: z.string().regex(/^\d{1,18}$/).nullish() })).query(async ({ ctx, input }) => {
    const page = await listAlerts(ctx.database.pool, { limit: input.limit, cursor: input.cursor ?? null });
    return { items: page.items.map(alertView), nextCursor: page.nextCursor };
  }),

  /** Whether the alert webhook's signing secret is stored (never the secret itself). */
  alertWebhook: memberProcedure.query(async ({ ctx }) => ({
    secretStored: (await findAlertWebhookSecret(ctx.database.pool)) !== null,
    canStoreSecrets: Boolean(ctx.env.HERALD_SECRET_KEY),
  })),

  /** Stores the alert webhook's signing secret, sealed with HERALD_SECRET_KEY: audit-logged, never echoed. */
  setAlertWebhookSecret: memberProcedure
    .input(z.object({ secret: z.string().min(16, "must be at least 16 characters").max(512) }))
    .mutation(async ({ ctx, input }) => {
      if (!ctx.env.HERALD_SECRET_KEY) {
        throw new AppError("BAD_REQUEST", "Herald cannot store secrets until HERALD_SECRET_KEY is set: they are encrypted with it at rest");
      }
      await storeAlertWebhookSecret(ctx.database.pool, new SecretBox(ctx.env.HERALD_SECRET_KEY).seal(input.secret));
      await appendAudit(ctx.database.prisma, {
        actorMemberId: ctx.member.id,
        actor: ctx.member.email,
        action: "alerts.webhook_secret.set",
        target: "alert webhook",
        detail: {},
        ip: ctx.ip,
      });
      return { secretStored: true };
    }),
});
