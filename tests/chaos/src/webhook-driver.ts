import { createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import { providerFixture, sesNotification, type SnsTestSigner } from "../../../apps/server/test/support/sns-signing.ts";
import { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN } from "./herald-worker.ts";

/**
 * One provider webhook as the provider posts it: body and headers fixed when it is built, so a
 * replay is byte for byte what the provider would send again (SNS retries keep the MessageId
 * and signature; Twilio signs the same URL and parameters).
 */
export interface Webhook {
  provider: "ses" | "twilio";
  /** The provider's id of the message it reports on (Herald's `provider_message_id`). */
  messageId: string;
  /** The lifecycle step: SES's eventType or Twilio's MessageStatus. */
  step: string;
  path: "/webhooks/ses" | "/webhooks/twilio";
  headers: Record<string, string>;
  body: string;
}

/**
 * How an email ends, as SES reports it: the events SES publishes for it, in order. An
 * asynchronous bounce comes after the Delivery: the receiving server took the message, then
 * bounced it.
 */
export const EMAIL_FATES = {
  delivered: ["Send", "Delivery", "Open", "Click"],
  bounced: ["Send", "Bounce:permanent"],
  failed: ["Send", "DeliveryDelay", "Bounce:transient"],
  complained: ["Send", "Delivery", "Complaint"],
  "bounced after delivery": ["Send", "Delivery", "Bounce:permanent"],
} as const;
export type EmailFate = keyof typeof EMAIL_FATES;

/** How an SMS ends, as Twilio's status callbacks report it, in order. */
export const SMS_FATES = {
  delivered: ["queued", "sent", "delivered"],
  undelivered: ["queued", "sent", "undelivered"],
  failed: ["queued", "failed"],
} as const;
export type SmsFate = keyof typeof SMS_FATES;

const SES_FIXTURES: Record<string, string> = {
  Send: "ses-send.json",
  Delivery: "ses-delivery.json",
  Open: "ses-open.json",
  Click: "ses-click.json",
  "Bounce:permanent": "ses-bounce-permanent.json",
  "Bounce:transient": "ses-bounce-transient.json",
  Complaint: "ses-complaint.json",
  DeliveryDelay: "ses-delivery-delay.json",
};

/** Where Twilio's errors for undelivered and failed messages come from (its documented codes). */
const TWILIO_ERROR_CODES: Record<string, string> = { undelivered: "30003", failed: "30008" };

/**
 * One SES event (an `ses-*.json` fixture, re-addressed to `messageId` and `address`, its times
 * moved to `publishedAt`) in an SNS Notification signed by `signer`. `publishedAt` is SNS's
 * Timestamp: a retry keeps the time SNS first published.
 */
export function sesWebhook(step: string, messageId: string, address: string, options: { publishedAt?: Date; signer?: SnsTestSigner } = {}): Webhook {
  const publishedAt = options.publishedAt ?? new Date();
  const event = JSON.parse(providerFixture(SES_FIXTURES[step]!)) as Record<string, { timestamp?: string; messageId?: string; destination?: string[] }>;
  event.mail!.messageId = messageId;
  event.mail!.destination = [address];
  event.mail!.timestamp = publishedAt.toISOString();
  for (const [name, detail] of Object.entries(event)) if (name !== "mail" && detail && typeof detail === "object" && "timestamp" in detail) detail.timestamp = publishedAt.toISOString();
  const envelope = sesNotification(JSON.stringify(event), { messageId: randomUUID(), timestamp: publishedAt, ...(options.signer ? { signer: options.signer } : {}) });
  return {
    provider: "ses",
    messageId,
    step,
    path: "/webhooks/ses",
    // SNS's own headers; the body is the JSON envelope as text/plain.
    headers: {
      "content-type": "text/plain; charset=UTF-8",
      "x-amz-sns-message-type": "Notification",
      "x-amz-sns-message-id": envelope.MessageId!,
      "x-amz-sns-topic-arn": envelope.TopicArn!,
    },
    body: JSON.stringify(envelope, null, 2),
  };
}

/** A status callback as Twilio posts it (the delivered fixture's parameters, re-addressed), signed with `authToken`. */
export function twilioWebhook(step: string, sid: string, to: string, apiUrl: string, authToken = TWILIO_AUTH_TOKEN): Webhook {
  const params = Object.fromEntries(new URLSearchParams(providerFixture("twilio-status-callback-delivered.form").trim()));
  Object.assign(params, { AccountSid: TWILIO_ACCOUNT_SID, MessageSid: sid, SmsSid: sid, MessageStatus: step, SmsStatus: step, To: to });
  if (step !== "delivered") delete params.RawDlrDoneDate;
  if (TWILIO_ERROR_CODES[step]) params.ErrorCode = TWILIO_ERROR_CODES[step];
  return {
    provider: "twilio",
    messageId: sid,
    step,
    path: "/webhooks/twilio",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": twilioSignature(`${apiUrl}/webhooks/twilio`, params, authToken) },
    body: new URLSearchParams(params).toString(),
  };
}

/** X-Twilio-Signature: HMAC-SHA1 with the auth token over the URL and every parameter, sorted by name. */
export function twilioSignature(url: string, params: Record<string, string>, authToken = TWILIO_AUTH_TOKEN): string {
  const signed = Object.keys(params)
    .sort()
    .reduce((text, name) => text + name + params[name], url);
  return createHmac("sha1", authToken).update(signed).digest("base64");
}

/** An answer to one posted webhook and how long it took. */
export interface WebhookAnswer {
  status: number;
  ms: number;
}

/**
 * Posts one webhook to Herald's API process, on a connection of its own. A kept-alive connection
 * is a race on a starved machine: the server closes it as idle while the client, its timers
 * late, sends the next request on it ("other side closed"), which says nothing about Herald.
 */
export function postWebhook(apiUrl: string, webhook: Webhook): Promise<WebhookAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(`${apiUrl}${webhook.path}`, { method: "POST", headers: webhook.headers, agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode!, ms: performance.now() - started }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(webhook.body);
  });
}

/** Posts webhooks one after another, so they arrive in exactly this order. */
export async function postInSequence(apiUrl: string, webhooks: readonly Webhook[]): Promise<WebhookAnswer[]> {
  const answers: WebhookAnswer[] = [];
  for (const webhook of webhooks) answers.push(await postWebhook(apiUrl, webhook));
  return answers;
}

/**
 * A delivery order: the phases are posted one after another, each once the previous one's
 * events are applied (`late` holds some events back until the notifications reached their
 * final state).
 */
export type DeliveryOrder = (lifecycles: readonly Webhook[][]) => Webhook[][];

/** Every message's events in order, the messages interleaved as a provider's stream would. */
export function inOrder(lifecycles: readonly Webhook[][]): Webhook[] {
  const stream: Webhook[] = [];
  for (let step = 0; step < Math.max(0, ...lifecycles.map((l) => l.length)); step++) {
    for (const lifecycle of lifecycles) {
      const webhook = lifecycle[step];
      if (webhook) stream.push(webhook);
    }
  }
  return stream;
}

export const DELIVERY_ORDERS = {
  "in order": (lifecycles) => [inOrder(lifecycles)],
  reversed: (lifecycles) => [inOrder(lifecycles).reverse()],
  duplicated: (lifecycles) => [inOrder(lifecycles).flatMap((w) => [w, w])],
  // The second event of each message after its last (an early status after a later one), and
  // its first only once the others are applied and the notification is in its final state.
  late: (lifecycles) => [
    inOrder(lifecycles.map((l) => (l.length > 2 ? [...l.slice(2), l[1]!] : l.slice(1)))),
    lifecycles.map((l) => l[0]!),
  ],
} satisfies Record<string, DeliveryOrder>;
export type DeliveryOrderName = keyof typeof DELIVERY_ORDERS;
