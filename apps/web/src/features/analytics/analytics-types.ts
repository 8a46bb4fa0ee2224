import type { inferInput, inferOutput } from "@trpc/tanstack-react-query";
import type { Api } from "../../lib/trpc.ts";

export type AnalyticsOverview = inferOutput<Api["analytics"]["overview"]>;
export type AnalyticsFilter = inferInput<Api["analytics"]["funnel"]>["filter"];
export type FunnelAnswer = inferOutput<Api["analytics"]["funnel"]>;
export type SeriesAnswer = inferOutput<Api["analytics"]["series"]>;
export type SeriesPoint = SeriesAnswer["points"][number];
export type ComparisonAnswer = inferOutput<Api["analytics"]["compare"]>;
export type Granularity = "day" | "week";
