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

/** An API key as listed: never the key itself, which only `apiKeys.create` returns, once. */
export type ApiKey = inferOutput<Api["apiKeys"]["list"]>["keys"][number];

/** What an API key may call: events ⊂ read ⊂ admin. */
export type ApiKeyScope = ApiKey["scope"];

/** A notification the engine gave up on, with the payload a replay would send again. */
export type DeadLetter = inferOutput<Api["deadLetters"]["list"]>["items"][number];

/** A message the sandbox provider "sent" instead of a real provider (development mode). */
export type SandboxMessage = inferOutput<Api["sandbox"]["messages"]>["items"][number];

/** An address the sandbox answers in a scripted way: a bounce, an invalid number… */
export type SandboxIdentity = inferOutput<Api["sandbox"]["messages"]>["identities"][number];

/** One notification in a user's history, with its event log and rendered content. */
export type UserNotification = inferOutput<Api["notifications"]["userHistory"]>["items"][number];

/** One step in a notification's log: queued, attempted, sent, delivered, replayed… */
export type NotificationEvent = UserNotification["events"][number];

/** A user a support search found, and which identifier matched. */
export type FoundUser = inferOutput<Api["users"]["search"]>["items"][number];

/** Everything the user page shows above the timeline. */
export type UserDetails = inferOutput<Api["users"]["get"]>;

/** One cell of a user's category × channel preference matrix. */
export type PreferenceCell = UserDetails["preferences"][number];

/** A suppression of one of a user's addresses. */
export type UserSuppression = UserDetails["suppressions"][number];

/** What would happen on one channel if a notification were sent now, gate by gate. */
export type Explanation = inferOutput<Api["users"]["explain"]>["explanations"][number];

/** A category: what notifications are about, with its per-channel defaults and aliases. */
export type Category = inferOutput<Api["categories"]["list"]>["categories"][number];

/** A notification type: an event type and the channel steps it sends. */
export type NotificationType = inferOutput<Api["notificationTypes"]["list"]>["notificationTypes"][number];

/** What erasing a user did, table by table (users.erase). */
export type ErasureSummary = inferOutput<Api["users"]["erase"]>;
