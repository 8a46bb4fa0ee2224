import { listAudit, listAuditActions } from "@herald/db";
import { z } from "zod";
import { memberProcedure, router } from "../trpc.ts";

const instant = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, such as 2026-11-30T00:00:00Z" });

export const auditRouter = router({
  list: memberProcedure
    .input(
      z
        .object({
          cursor: z.string().max(200).nullish(),
          limit: z.number().int().min(1).max(200).default(50),
          action: z.string().max(100).nullish(),
          memberId: z.string().regex(/^\d{1,18}$/, "must be a member id").nullish(),
          from: instant.nullish(),
          to: instant.nullish(),
        })
        .refine((f) => !f.from || !f.to || Date.parse(f.from) < Date.parse(f.to), { message: "must be after from", path: ["to"] }),
    )
    .query(async ({ ctx, input }) => {
      const page = await listAudit(ctx.database.pool, {
        cursor: input.cursor ?? null,
        limit: input.limit,
        action: input.action ?? null,
        actorMemberId: input.memberId ?? null,
        from: input.from ? new Date(input.from) : null,
        to: input.to ? new Date(input.to) : null,
      });
      return {
        items: page.items.map((e) => ({ ...e, at: e.at.toISOString() })),
        nextCursor: page.nextCursor,
      };
    }),

  /** The actions the log holds, for the action filter. */
  actions: memberProcedure.query(async ({ ctx }) => ({ actions: await listAuditActions(ctx.database.prisma) })),
});
