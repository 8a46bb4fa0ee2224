import { getSetting } from "../../settings/settings-service.ts";
import { memberProcedure, router } from "../trpc.ts";

export const systemRouter = router({
  status: memberProcedure.query(async ({ ctx }) => ({
    workspaceName: await getSetting<string>(ctx.database, ctx.env, "workspace.name"),
    mode: ctx.env.HERALD_MODE,
    role: ctx.env.HERALD_ROLE,
    version: ctx.version,
    postgres: ctx.postgresVersion,
    unconfiguredChannels: ctx.providers.unconfiguredChannels() as string[],
  })),
});
