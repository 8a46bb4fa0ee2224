import { listAudit } from "@herald/db";
import { z } from "zod";
import { memberProcedure, router } from "../trpc.ts";

export const auditRouter = router({
  list: memberProcedure
    .input(
      z.object({
        cursor: z.string().max(200).nullish(),
        limit: z.number().int().min(1).max(200).default(50),
        action: z.string().max(100).nullish(),
        memberId: z.string().regex(/^\d{1,18}$/).nullish(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const page = await listAudit(ctx.database.prisma, {
        cursor: input.cursor ?? null,
        limit: input.limit,
        action: input.action ?? null,
        actorMemberId: input.memberId ?? null,
      });
      return {
        items: page.items.map((e) => ({ ...e, at: e.at.toISOString() })),
        nextCursor: page.nextCursor,
      };
    }),
});
