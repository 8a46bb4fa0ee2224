import type { inferOutput } from "@trpc/tanstack-react-query";
import type { Api } from "./trpc.ts";

/** A dashboard account (admin, marketer, support, operator or viewer). */
export type Member = inferOutput<Api["members"]["list"]>["members"][number];

/** What a member may do; the server decides, the dashboard only hides what would be refused. */
export type Role = Member["role"];

/** An invitation that has not been accepted yet. */
export type Invite = inferOutput<Api["members"]["list"]>["invites"][number];

/** One row of the General settings, with its current value and where that value comes from. */
export type Setting = inferOutput<Api["settings"]["list"]>["settings"][number];

/** One audit log entry. */
export type AuditEntry = inferOutput<Api["audit"]["list"]>["items"][number];

