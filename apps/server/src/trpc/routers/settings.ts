import { z } from "zod";
import { listSettings, updateSetting } from "../../settings/settings-service.ts";
import { memberProcedure, router } from "../trpc.ts";

export const settingsRouter = router({
  list: memberProcedure.query(async ({ ctx }) => ({ settings: await listSettings(ctx.database, ctx.env) })),

  update: memberProcedure
    .input(z.object({ key: z.string().min(1).max(100), value: z.union([z.string().max(1000), z.number(), z.boolean()]) }))
    .mutation(async ({ ctx, input }) => ({
      setting: await updateSetting(ctx.database, ctx.env, input.key, input.value, {
        memberId: ctx.member.id,
        label: ctx.member.email,
        ip: ctx.ip,
      }),
    })),
});
