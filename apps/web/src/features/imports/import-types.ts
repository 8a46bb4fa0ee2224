import type { inferInput, inferOutput } from "@trpc/tanstack-react-query";
import type { Api } from "../../lib/trpc.ts";

/** One row of `imports.list`: a file, what it became and how far it got. */
export type ImportSummary = inferOutput<Api["imports"]["list"]>["items"][number];

/** What `imports.get` answers: the summary plus the header, first rows and mapping. */
export type ImportDetail = inferOutput<Api["imports"]["get"]>;

export type ImportStatus = ImportSummary["status"];

/** The mapping `imports.preview` and `imports.start` take. */
export type ImportMapping = inferInput<Api["imports"]["start"]>["mapping"];

/** One sample row as the import would treat it. */
export type PreviewRow = inferOutput<Api["imports"]["preview"]>["rows"][number];

/** A refused row: its number in the file, why, and its cells. */
export type ImportError = inferOutput<Api["imports"]["errors"]>["items"][number];
