import { ChannelSchema, SANDBOX_IDENTITIES } from "@herald/core";
import { listSandboxMessages } from "@herald/db";
import { z } from "zod";
import { memberProcedure, router } from "../trpc.ts";

export const sandboxRouter = router({
  messages: memberProcedure
    .input(z.object({ to: z.string().max(4096).nullish(), channel: ChannelSchema.nullish(), limit: z.number().int().min(1).max(500).default(50) }))
    .query(async ({ ctx, input }) => {
      const items = await listSandboxMessages(ctx.database.pool, { to: input.to ?? null, channel: input.channel ?? null, limit: input.limit });
      return {
        items: items.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })),
        identities: Object.entries(SANDBOX_IDENTITIES).map(([address, meaning]) => ({ address, meaning })),
      };
    }),
});
