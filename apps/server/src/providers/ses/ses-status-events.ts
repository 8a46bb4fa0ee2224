import type { StatusEvent } from "@herald/db";
import { z } from "zod";

const Recipient = z.object({ emailAddress: z.string().optional(), diagnosticCode: z.string().optional(), status: z.string().optional() });
const Timestamp = z.string().optional();

/**
 * An SES event as SNS carries it in `Message`: event publishing (`eventType`, configuration sets)
 * or the older identity notifications (`notificationType`). Only the fields Herald reads.
 */
const SesEventSchema = z.object({
  eventType: z.string().optional(),
  notificationType: z.string().optional(),
  mail: z.object({ messageId: z.string().min(1), timestamp: Timestamp }),
  delivery: z.object({ timestamp: Timestamp, smtpResponse: z.string().optional() }).optional(),
  bounce: z
    .object({
      bounceType: z.string(),
      bounceSubType: z.string().optional(),
      bouncedRecipients: z.array(Recipient).optional(),
      timestamp: Timestamp,
    })
    .optional(),
  complaint: z
    .object({
      complaintFeedbackType: z.string().optional(),
      complaintSubType: z.string().nullish(),
      timestamp: Timestamp,
    })
    .optional(),
  reject: z.object({ reason: z.string().optional() }).optional(),
  deliveryDelay: z
    .object({
      delayType: z.string().optional(),
      expirationTime: z.string().optional(),
      delayedRecipients: z.array(Recipient).optional(),
      timestamp: Timestamp,
    })
    .optional(),
  failure: z.object({ errorMessage: z.string().optional(), templateName: z.string().optional() }).optional(),
});
type SesEvent = z.infer<typeof SesEventSchema>;

const EnvelopeSchema = z.object({ Message: z.string(), Timestamp: Timestamp });

/** The SES event inside a verified SNS envelope, or null when the envelope carries none. */
export function sesEventOf(rawEnvelope: string): SesEvent | null {
  try {
    const envelope = EnvelopeSchema.safeParse(JSON.parse(rawEnvelope));
    if (!envelope.success) return null;
    const event = SesEventSchema.safeParse(JSON.parse(envelope.data.Message));
    if (!event.success || !(event.data.eventType ?? event.data.notificationType)) return null;
    return event.data;
  } catch {
    return null;
  }
}

/** `eventType` (event publishing) or `notificationType` (identity notifications). */
export function sesEventKind(event: SesEvent): string {
  return event.eventType ?? event.notificationType ?? "unknown";
}

/** When SES says the event happened (the first candidate that parses), or now when it says nothing. */
function when(...candidates: Array<string | undefined>): { at: Date; providerTime: boolean } {
  for (const candidate of candidates) {
    const time = candidate ? Date.parse(candidate) : Number.NaN;
    if (Number.isFinite(time)) return { at: new Date(time), providerTime: true };
  }
  return { at: new Date(), providerTime: false };
}

function compact(detail: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(detail).filter(([, v]) => v !== undefined && v !== null));
}

/**
 * Turns a verified SNS envelope from SES into status events (a `WebhookParser`). Send and
 * Subscription add nothing (Herald records `sent` itself; unsubscribes are Herald's own);
 * Open and Click are SES's tracking, ignored because Herald's tracking is the one source of
 * opened/clicked. Every bounce SES publishes is final for the message (SES publishes soft
 * bounces only once it has stopped retrying), so Transient and Undetermined ones fail the
 * message without suppressing the address; only Permanent ones suppress.
 */
export function sesStatusEvents(raw: string): StatusEvent[] {
  const event = sesEventOf(raw);
  if (!event) return [];
  const providerMessageId = event.mail.messageId;
  const base = { providerMessageId, source: "ses" } as const;
  const kind = sesEventKind(event);
  switch (kind) {
    case "Delivery":
      return [
        {
          ...base,
          kind: "delivered",
          ...when(event.delivery?.timestamp, event.mail.timestamp),
          detail: compact({ provider: "ses", smtpResponse: event.delivery?.smtpResponse }),
        },
      ];
    case "Bounce": {
      const bounce = event.bounce;
      if (!bounce) return [];
      const detail = compact({
        provider: "ses",
        bounceType: bounce.bounceType,
        bounceSubType: bounce.bounceSubType,
        diagnosticCode: bounce.bouncedRecipients?.[0]?.diagnosticCode,
      });
      const time = when(bounce.timestamp, event.mail.timestamp);
      return bounce.bounceType === "Permanent"
        ? [{ ...base, kind: "bounced", ...time, detail, suppress: "hard_bounce" }]
        : [{ ...base, kind: "failed", ...time, detail }];
    }
    case "Complaint":
      return [
        {
          ...base,
          kind: "complaint",
          ...when(event.complaint?.timestamp, event.mail.timestamp),
          detail: compact({
            provider: "ses",
            complaintFeedbackType: event.complaint?.complaintFeedbackType,
            complaintSubType: event.complaint?.complaintSubType,
          }),
          suppress: "complaint",
        },
      ];
    case "Reject":
      return [{ ...base, kind: "failed", ...when(event.mail.timestamp), detail: compact({ provider: "ses", rejected: event.reject?.reason }) }];
    case "DeliveryDelay":
      return [
        {
          ...base,
          kind: "delivery_delayed",
          ...when(event.deliveryDelay?.timestamp, event.mail.timestamp),
          detail: compact({
            provider: "ses",
            delayType: event.deliveryDelay?.delayType,
            expirationTime: event.deliveryDelay?.expirationTime,
            diagnosticCode: event.deliveryDelay?.delayedRecipients?.[0]?.diagnosticCode,
          }),
        },
      ];
    case "Rendering Failure":
      return [
        {
          ...base,
          kind: "failed",
          ...when(event.mail.timestamp),
          detail: compact({ provider: "ses", renderingFailure: event.failure?.errorMessage, templateName: event.failure?.templateName }),
        },
      ];
    // Send, Subscription, Open, Click, and whatever SES adds later.
    default:
      return [];
  }
}
