import { memberProcedure, router } from "../trpc.ts";

export const systemRouter = router({
  status: memberProcedure.query(({ ctx }) => ({
    mode: ctx.env.HERALD_MODE,
    role: ctx.env.HERALD_ROLE,
    version: ctx.version,
    postgres: ctx.postgresVersion,
    // Channels arrive with the delivery engine; until then nothing can be unconfigured.
    unconfiguredChannels: [] as string[],
  })),
});
