import { ChannelSchema } from "@herald/core";
import { appendAudit, listDeadLetters, replayDeadLetters } from "@herald/db";
import { z } from "zod";
import { memberProcedure, router } from "../trpc.ts";

const FilterSchema = z.object({
  channel: ChannelSchema.nullish(),
  reason: z.string().max(200).nullish(),
  olderThanMinutes: z.number().int().min(0).max(525_600).nullish(),
  newerThanMinutes: z.number().int().min(0).max(525_600).nullish(),
});

function toFilter(input: z.infer<typeof FilterSchema>) {
  return {
    channel: input.channel ?? null,
    reason: input.reason ?? null,
    olderThanMs: input.olderThanMinutes != null ? input.olderThanMinutes * 60_000 : null,
    newerThanMs: input.newerThanMinutes != null ? input.newerThanMinutes * 60_000 : null,
  };
}

export const deadLettersRouter = router({
  list: memberProcedure
    .input(FilterSchema.extend({ cursor: z.string().max(200).nullish(), limit: z.number().int().min(1).max(200).default(50) }))
    .query(async ({ ctx, input }) => {
      const page = await listDeadLetters(ctx.database.pool, toFilter(input), { limit: input.limit, cursor: input.cursor ?? null });
      return {
        items: page.items.map((d) => ({ ...d, createdAt: d.createdAt.toISOString(), deadAt: d.deadAt.toISOString() })),
        nextCursor: page.nextCursor,
      };
    }),

  /** Replays one, a selection, or every dead letter matching a filter: audit-logged. */
  replay: memberProcedure
    .input(z.union([z.object({ ids: z.array(z.string().regex(/^\d{1,18}$/)).min(1).max(1000) }), z.object({ filter: FilterSchema })]))
    .mutation(async ({ ctx, input }) => {
      const target = "ids" in input ? { ids: input.ids } : { filter: toFilter(input.filter) };
      const replayed = await replayDeadLetters(ctx.database.pool, target, ctx.member.email);
      await appendAudit(ctx.database.prisma, {
        actorMemberId: ctx.member.id,
        actor: ctx.member.email,
        action: "dead_letters.replay",
        target: "ids" in input ? `${input.ids.length} selected` : "filter",
        detail: { ...("ids" in input ? { ids: input.ids } : { filter: input.filter }), replayed: replayed.length },
        ip: ctx.ip,
      });
      ctx.nudgePump();
      return { replayed: replayed.length };
    }),
});
