import { AnalyticsFilterSchema, GranularitySchema } from "@herald/core";
import { z } from "zod";
import { analyticsComparison, analyticsFunnel, analyticsOverview, analyticsSeries } from "../../analytics/analytics-report.ts";
import { memberProcedure, router } from "../trpc.ts";

export const analyticsRouter = router({
  /** The pickers' choices, the rollup's time zone, today there, and how current the rollup is. */
  overview: memberProcedure.query(({ ctx }) => analyticsOverview(ctx.database.pool, new Date())),

  /** sent → delivered → opened → clicked per channel, with rates over the right denominators. */
  funnel: memberProcedure.input(z.object({ filter: AnalyticsFilterSchema })).query(({ ctx, input }) => analyticsFunnel(ctx.database.pool, input.filter)),

  /** Counters and rates per day or week of the range (open, delivery, bounce, complaint rates). */
  series: memberProcedure
    .input(z.object({ filter: AnalyticsFilterSchema, granularity: GranularitySchema.default("day") }))
    .query(({ ctx, input }) => analyticsSeries(ctx.database.pool, input.filter, input.granularity)),

  /** Broadcasts, or template versions, side by side. */
  compare: memberProcedure
    .input(z.object({ filter: AnalyticsFilterSchema, by: z.enum(["broadcast", "template_version"], { error: () => "must be broadcast or template_version" }) }))
    .query(({ ctx, input }) => analyticsComparison(ctx.database.pool, input.filter, input.by)),
});
