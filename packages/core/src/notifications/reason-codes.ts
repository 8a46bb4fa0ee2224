import { z } from "zod";
import { SUPPRESSION_REASONS, type SuppressionReason } from "../suppressions/suppression-reasons.ts";

/** What kind of address a user lacks when a notification is unreachable. */
export const UNREACHABLE_KINDS = ["device", "email", "phone"] as const;
export type UnreachableKind = (typeof UNREACHABLE_KINDS)[number];

/** Reason codes that take no parameter. */
export const FIXED_REASON_CODES = [
  "category_disabled",
  "quiet_hours",
  "frequency_capped",
  "credentials_outage",
  "channel_unconfigured",
  "rate_limited",
  "breaker_open",
  "consent_changing",
  "batch_stopped",
  "max_attempts",
  "max_age",
  "outage_max_age",
  "invalid_payload",
  "broadcast_canceled",
  "user_erased",
  "replayed",
] as const;
export type FixedReasonCode = (typeof FIXED_REASON_CODES)[number];

/** Any reason code the engine may store, parameterised ones included. */
export type ReasonCode =
  | FixedReasonCode
  | `suppressed:${SuppressionReason}`
  | `unreachable:${UnreachableKind}`
  | "render_failed"
  | `render_failed:${string}`
  | `provider_rejected:${string}`;

/** A row of REASON_CODES: a fixed code or the pattern of a parameterised one. */
export type ReasonCodeKey =
  | FixedReasonCode
  | "suppressed:<reason>"
  | "unreachable:<kind>"
  | "render_failed"
  | "render_failed:<variable>"
  | "provider_rejected:<code>";

/** The step of the pipeline that produced a reason. */
export type ReasonGate =
  | "preference"
  | "suppression"
  | "reachability"
  | "quiet_hours"
  | "frequency_cap"
  | "render"
  | "provider"
  | "retry"
  | "outage"
  | "broadcast"
  | "operator";

/** Where a reason leaves the notification: a settled status, a deferral, or nowhere new. */
export type ReasonSettles = "skipped" | "dead" | "deferred" | "canceled" | "none";

/** What a reason code means and what it does to the notification. */
export interface ReasonCodeInfo {
  gate: ReasonGate;
  meaning: string;
  settles: ReasonSettles;
}

// The one list the dry run, Explain, rollups and customers key on. Adding a code is an API change:
// customers filter and alert on these strings, so never rename one.
export const REASON_CODES: Readonly<Record<ReasonCodeKey, ReasonCodeInfo>> = {
  category_disabled: { gate: "preference", meaning: "opted out of this category on this channel", settles: "skipped" },
  quiet_hours: { gate: "quiet_hours", meaning: "deferred: quiet hours", settles: "deferred" },
  // The category's cap action decides: "skip" settles as skipped, "defer" logs this code on a deferral.
  frequency_capped: { gate: "frequency_cap", meaning: "the category's frequency cap was reached", settles: "skipped" },
  credentials_outage: { gate: "outage", meaning: "deferred: the provider refused our credentials", settles: "deferred" },
  channel_unconfigured: { gate: "operator", meaning: "no provider is configured for this channel", settles: "skipped" },
  rate_limited: { gate: "provider", meaning: "deferred: the provider's rate limit was reached", settles: "deferred" },
  breaker_open: { gate: "outage", meaning: "deferred: the provider's circuit breaker is open", settles: "deferred" },
  consent_changing: {
    gate: "preference",
    meaning: "deferred a moment: an opt-out, suppression or device change of this recipient was being written",
    settles: "deferred",
  },
  batch_stopped: {
    gate: "retry",
    meaning: "deferred a moment: its batch stopped before calling it (the database or its consent hold went away); no attempt spent",
    settles: "deferred",
  },
  max_attempts: { gate: "retry", meaning: "gave up after the maximum number of attempts", settles: "dead" },
  max_age: { gate: "retry", meaning: "gave up: still failing at the maximum age", settles: "dead" },
  outage_max_age: { gate: "outage", meaning: "gave up: the provider outage outlasted the maximum age", settles: "dead" },
  invalid_payload: { gate: "render", meaning: "its payload is invalid and cannot be sent", settles: "dead" },
  broadcast_canceled: { gate: "broadcast", meaning: "its broadcast was canceled before it was sent", settles: "canceled" },
  user_erased: { gate: "operator", meaning: "its user was erased before it was sent", settles: "canceled" },
  replayed: { gate: "operator", meaning: "replayed by an operator from the dead-letter queue", settles: "none" },
  "suppressed:<reason>": { gate: "suppression", meaning: "the address is on the suppression list", settles: "skipped" },
  "unreachable:<kind>": { gate: "reachability", meaning: "the user has no address on this channel", settles: "skipped" },
  render_failed: { gate: "render", meaning: "the content could not be rendered", settles: "dead" },
  "render_failed:<variable>": { gate: "render", meaning: "the content needs a variable that is missing", settles: "dead" },
  "provider_rejected:<code>": { gate: "provider", meaning: "the provider rejected it permanently", settles: "dead" },
};

const SUPPRESSED_WORDS: Readonly<Record<SuppressionReason, string>> = {
  hard_bounce: "address suppressed after a hard bounce",
  complaint: "address suppressed after a spam complaint",
  stop: "number suppressed after a STOP reply",
  invalid: "address suppressed as invalid",
  manual: "address suppressed by an operator",
  import: "address suppressed by an imported list",
};

const UNREACHABLE_WORDS: Readonly<Record<UnreachableKind, string>> = {
  device: "no active device",
  email: "no email address",
  phone: "no phone number",
};

const RENDER_PROBLEM_WORDS: Readonly<Record<string, string>> = {
  template: "its template version is not available",
  missing_content: "the template has no content for this channel in any locale of the user's chain",
  too_large: "the rendered content is over the channel's size limit",
  header_injection: "a subject or title would contain a line break",
  render_error: "the template failed while rendering",
};

const VARIABLE_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const MAX_VARIABLE_PATH = 256;
const PROVIDER_CODE = /^[A-Za-z0-9_.-]{1,64}$/;
const FIXED = new Set<string>(FIXED_REASON_CODES);

type Parsed = { key: ReasonCodeKey; parameter: string | null } | { problem: string };

function parse(code: string): Parsed {
  if (FIXED.has(code)) return { key: code as FixedReasonCode, parameter: null };
  if (code === "render_failed") return { key: "render_failed", parameter: null };
  const colon = code.indexOf(":");
  const prefix = colon < 0 ? code : code.slice(0, colon);
  const parameter = code.slice(colon + 1);
  const quoted = JSON.stringify(code);
  switch (colon < 0 ? null : prefix) {
    case "suppressed":
      return (SUPPRESSION_REASONS as readonly string[]).includes(parameter)
        ? { key: "suppressed:<reason>", parameter }
        : { problem: `${quoted} names an unknown suppression reason "${parameter}": use ${SUPPRESSION_REASONS.join(", ")}` };
    case "unreachable":
      return (UNREACHABLE_KINDS as readonly string[]).includes(parameter)
        ? { key: "unreachable:<kind>", parameter }
        : { problem: `${quoted} names an unknown address kind "${parameter}": use ${UNREACHABLE_KINDS.join(", ")}` };
    case "render_failed":
      return VARIABLE_PATH.test(parameter) && parameter.length <= MAX_VARIABLE_PATH
        ? { key: "render_failed:<variable>", parameter }
        : { problem: `${quoted} names "${parameter}", which is not a variable path like data.order.total` };
    case "provider_rejected":
      return PROVIDER_CODE.test(parameter)
        ? { key: "provider_rejected:<code>", parameter }
        : { problem: `${quoted} names "${parameter}", which is not a provider code (1 to 64 letters, digits, "_", "." or "-")` };
    default:
      return { problem: `${quoted} is not a reason code` };
  }
}

/** Whether a value is a reason code the engine knows, parameter included. */
export function isReasonCode(value: unknown): value is ReasonCode {
  return typeof value === "string" && "key" in parse(value);
}

/** The REASON_CODES row a code belongs to, for rollups; null for an unknown code. */
export function reasonCodeKey(code: string): ReasonCodeKey | null {
  const parsed = parse(code);
  return "key" in parsed ? parsed.key : null;
}

/** Validates any reason code, naming what is wrong with a bad one. */
export const ReasonCodeSchema = z.custom<ReasonCode>(isReasonCode, {
  error: (issue) => {
    const parsed = typeof issue.input === "string" ? parse(issue.input) : null;
    return parsed && "problem" in parsed ? parsed.problem : "must be a reason code string";
  },
});

/** `suppressed:<reason>`: the address is on the suppression list. */
export function suppressedReason(reason: SuppressionReason): ReasonCode {
  return `suppressed:${reason}`;
}

/** `unreachable:<kind>`: the user has no device, email address or phone number. */
export function unreachableReason(kind: UnreachableKind): ReasonCode {
  return `unreachable:${kind}`;
}

/** `render_failed`, or `render_failed:<variable>` when a named variable was missing. */
export function renderFailedReason(variable?: string): ReasonCode {
  if (variable === undefined) return "render_failed";
  const code = `render_failed:${variable}` as const;
  if (!isReasonCode(code)) throw new RangeError(`"${variable}" is not a variable path like data.order.total`);
  return code;
}

/** `provider_rejected:<code>`: the provider refused the message permanently. */
export function providerRejectedReason(code: string | number): ReasonCode {
  const reason = `provider_rejected:${code}` as const;
  if (!isReasonCode(reason)) throw new RangeError(`"${code}" is not a provider code (1 to 64 letters, digits, "_", "." or "-")`);
  return reason;
}

/** A reason code in plain words, for Explain and the dashboard; tolerates codes it does not know. */
export function describeReason(code: string): string {
  const parsed = parse(code);
  if ("problem" in parsed) return `unknown reason code ${JSON.stringify(code)}`;
  const { key, parameter } = parsed;
  switch (key) {
    case "suppressed:<reason>":
      return SUPPRESSED_WORDS[parameter as SuppressionReason];
    case "unreachable:<kind>":
      return UNREACHABLE_WORDS[parameter as UnreachableKind];
    case "render_failed:<variable>":
      // Variable paths always hold a dot (data.x, user.x); a bare word is what else went wrong.
      return parameter!.includes(".") ? `could not render: ${parameter} is missing` : `could not render: ${RENDER_PROBLEM_WORDS[parameter!] ?? parameter}`;
    case "provider_rejected:<code>":
      return `the provider rejected it (code ${parameter})`;
    default:
      return REASON_CODES[key].meaning;
  }
}
