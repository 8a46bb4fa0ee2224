import type { StatusEvent } from "@herald/db";
import { z } from "zod";

/** Every `MessageStatus` Twilio documents (MessageEnumStatus), in lifecycle order. */
export const TWILIO_MESSAGE_STATUSES = [
  "accepted",
  "scheduled",
  "queued",
  "sending",
  "sent",
  "delivered",
  "undelivered",
  "failed",
  "read",
  "canceled",
  "receiving",
  "received",
  "partially_delivered",
] as const;
export type TwilioMessageStatus = (typeof TWILIO_MESSAGE_STATUSES)[number];

/**
 * What each status does to a notification. Null: nothing Herald tracks changes. `sent` already
 * is the notification's status once Twilio accepted the create; the steps before it are Twilio's
 * queue; `canceled` only happens to scheduled messages, which Herald never schedules. Such a
 * callback stays in `herald.webhook_events` (state `ignored`) as the log of it.
 */
export const TWILIO_STATUS_EFFECT: Readonly<Record<TwilioMessageStatus, "delivered" | "failed" | "read" | null>> = {
  accepted: null,
  scheduled: null,
  queued: null,
  sending: null,
  sent: null,
  delivered: "delivered",
  undelivered: "failed",
  failed: "failed",
  read: "read",
  canceled: null,
  receiving: null,
  received: null,
  partially_delivered: null,
};

/** 21610 in a status callback: a Messaging Service refused the send because the number replied STOP. */
const STOP_ERROR_CODE = "21610";

const SID = /^[A-Z]{2}[0-9a-fA-F]{32}$/;

/** The statuses an inbound message may carry; any other `MessageStatus` is an outbound status callback. */
const INBOUND_STATUSES = new Set(["received", "receiving"]);

const StatusCallbackSchema = z.object({
  MessageSid: z.string().regex(SID),
  MessageStatus: z.string().min(1).max(64),
  ErrorCode: z.string().max(32).optional(),
  /** Set only on rows the reconcile task records (Twilio never sends it). */
  HeraldReconciled: z.literal("true").optional(),
});

/** A status callback's identity: the webhook's dedup key is `${messageSid}:${status}`. */
export interface TwilioStatusCallback {
  messageSid: string;
  status: string;
  errorCode: string | null;
  reconciled: boolean;
}

/**
 * Every parameter of a form body, repeated names as arrays: what Twilio signs, whether Herald
 * knows the parameter or not.
 */
export function twilioFormParams(raw: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    const seen = params[name];
    params[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return params;
}

function single(params: Record<string, string | string[]>, name: string): string | undefined {
  const value = params[name];
  return Array.isArray(value) ? undefined : value;
}

/** The status callback in a form body, or null when it is not one (an inbound message, say). */
export function twilioStatusCallback(raw: string): TwilioStatusCallback | null {
  const params = twilioFormParams(raw);
  const status = single(params, "MessageStatus");
  if (status === undefined || INBOUND_STATUSES.has(status)) return null;
  const parsed = StatusCallbackSchema.safeParse({
    MessageSid: single(params, "MessageSid"),
    MessageStatus: status,
    ErrorCode: single(params, "ErrorCode") || undefined,
    HeraldReconciled: single(params, "HeraldReconciled"),
  });
  if (!parsed.success) return null;
  return {
    messageSid: parsed.data.MessageSid,
    status: parsed.data.MessageStatus,
    errorCode: parsed.data.ErrorCode ?? null,
    reconciled: parsed.data.HeraldReconciled === "true",
  };
}

function isKnownStatus(status: string): status is TwilioMessageStatus {
  return (TWILIO_MESSAGE_STATUSES as readonly string[]).includes(status);
}

/**
 * The status events in one verified status-callback body (`application/x-www-form-urlencoded`).
 * Empty for statuses that change nothing, unknown statuses and anything not a status callback.
 * Callbacks carry no timestamp of their own, so `at` is when the event is applied (a job, moments
 * after the callback arrived).
 */
export function twilioStatusEvents(raw: string, now: Date = new Date()): StatusEvent[] {
  const callback = twilioStatusCallback(raw);
  if (!callback || !isKnownStatus(callback.status)) return [];
  const kind = TWILIO_STATUS_EFFECT[callback.status];
  if (kind === null) return [];
  const detail: Record<string, unknown> = { provider: "twilio", status: callback.status };
  if (kind === "failed") detail.errorCode = callback.errorCode;
  if (callback.reconciled) detail.reconciled = true;
  return [
    {
      providerMessageId: callback.messageSid,
      kind,
      at: now,
      detail,
      ...(kind === "failed" && callback.errorCode === STOP_ERROR_CODE ? { suppress: "stop" as const } : {}),
      source: "twilio",
    },
  ];
}

/** Twilio's default opt-out and opt-in keywords (matched alone, case-insensitive, trimmed). */
export const STOP_KEYWORDS = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"] as const;
export const START_KEYWORDS = ["START", "YES", "UNSTOP"] as const;

/** An inbound SMS that opts the sender out of (stop) or back into (start) Herald's SMS. */
export interface TwilioInboundCommand {
  from: string;
  command: "stop" | "start";
  messageSid: string | null;
}

const InboundSchema = z.object({
  From: z.string().min(1).max(64),
  Body: z.string().max(2000).optional(),
  OptOutType: z.string().max(32).optional(),
  MessageSid: z.string().regex(SID).optional(),
});

/**
 * The opt-out or opt-in an inbound message asks for; null for any other message and for status
 * callbacks. Twilio's Advanced Opt-Out names the keyword it matched in `OptOutType`, which wins
 * over reading `Body` (it knows the custom keywords an account configured).
 */
export function twilioInboundCommand(raw: string): TwilioInboundCommand | null {
  const params = twilioFormParams(raw);
  const status = params.MessageStatus;
  if (status !== undefined && !(typeof status === "string" && INBOUND_STATUSES.has(status))) return null;
  const parsed = InboundSchema.safeParse({
    From: single(params, "From"),
    Body: single(params, "Body"),
    OptOutType: single(params, "OptOutType"),
    MessageSid: single(params, "MessageSid"),
  });
  if (!parsed.success) return null;
  const { From: from, Body: body, OptOutType: optOutType, MessageSid: messageSid } = parsed.data;
  const keyword = (optOutType ?? body ?? "").trim().toUpperCase();
  const command = (STOP_KEYWORDS as readonly string[]).includes(keyword)
    ? "stop"
    : (START_KEYWORDS as readonly string[]).includes(keyword)
      ? "start"
      : null;
  return command ? { from, command, messageSid: messageSid ?? null } : null;
}
