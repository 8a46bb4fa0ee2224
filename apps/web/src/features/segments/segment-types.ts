import type { inferOutput } from "@trpc/tanstack-react-query";
import type { Api } from "../../lib/trpc.ts";

/** One row of `segments.list`: name, plain words, last known size and when a broadcast last used it. */
export type SegmentSummary = inferOutput<Api["segments"]["list"]>["items"][number];

/** What `segments.get` answers: the segment with its rule, and the segments that name it. */
export type SegmentDetail = inferOutput<Api["segments"]["get"]>;

/** A built-in starting rule a marketer can copy. */
export type SegmentPreset = inferOutput<Api["segments"]["presets"]>["items"][number];

/** The live count (null when counting took too long), 20 members and the words of a rule being edited. */
export type SegmentPreview = inferOutput<Api["segments"]["preview"]>;
