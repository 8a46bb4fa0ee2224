import type { inferOutput } from "@trpc/tanstack-react-query";
import type { Api } from "../../lib/trpc.ts";

export type DeliveryOverview = inferOutput<Api["operations"]["overview"]>;
export type LaneHealth = DeliveryOverview["lanes"][number];
export type ProviderHealth = DeliveryOverview["providers"][number];
export type OperationsAlert = inferOutput<Api["operations"]["alerts"]>["items"][number];
export type OrphanWebhook = inferOutput<Api["operations"]["orphanWebhooks"]>["items"][number];
