import type { inferInput, inferOutput } from "@trpc/tanstack-react-query";
import type { Api } from "../../lib/trpc.ts";

/** One row of `broadcasts.list`. */
export type BroadcastSummary = inferOutput<Api["broadcasts"]["list"]>["items"][number];

/** A broadcast as the server stores it: what was composed, its status and schedule. */
export type Broadcast = inferOutput<Api["broadcasts"]["get"]>["broadcast"];

/** A broadcast's lifecycle status. */
export type BroadcastStatus = Broadcast["status"];

/** The live counters of `broadcasts.get`: the whole funnel and one per channel. */
export type BroadcastProgress = inferOutput<Api["broadcasts"]["get"]>["progress"];

/** One funnel: targeted, pending, sent … and skipped and dead rows by reason. */
export type Funnel = BroadcastProgress["total"];

/** What a marketer composes, as `broadcasts.create` takes it. */
export type BroadcastInput = inferInput<Api["broadcasts"]["create"]>;

/** When sending starts: now, at an instant, or at a local time in each recipient's zone. */
export type BroadcastSchedule = inferInput<Api["broadcasts"]["schedule"]>["schedule"];

/** What sending now would do: audience, holdout, gate verdicts, ETA per channel, SMS segments. */
export type DryRun = inferOutput<Api["broadcasts"]["dryRun"]>;

/** The report when done: funnels per channel and variant, comparisons, lift and the CSV. */
export type BroadcastReportAnswer = inferOutput<Api["broadcasts"]["report"]>;
