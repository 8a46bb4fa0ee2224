import { mapConcurrently } from "../map-concurrently.ts";
import { notCalled, type OutboundMessage, type Provider, type ProviderCallResult } from "../provider.ts";
import { createTwilioClient, withRetryAfter } from "./twilio-client.ts";
import { classifyTwilioFailure, twilioFailureOf } from "./twilio-errors.ts";

/** Twilio Programmable Messaging credentials and sending settings. */
export interface TwilioConfig {
  /** Provider name (token bucket, breaker, the notification row); starts with `twilio`. */
  name: string;
  accountSid: string;
  authToken: string;
  /** Sender number (E.164), when no Messaging Service is set. */
  from?: string;
  /** A Messaging Service SID (MG…), preferred over `from`. */
  messagingServiceSid?: string;
  /** `${HERALD_PUBLIC_URL}/webhooks/twilio`: Twilio signs its callbacks over this exact URL. */
  statusCallbackUrl: string;
  /** Overrides https://api.twilio.com (a local simulator in tests). */
  baseUrl?: string;
}

/** Knobs tests and tuning may turn; the defaults suit production. */
export interface TwilioProviderOptions {
  /** Messages create calls in flight at once for one batch. */
  concurrency?: number;
  /** Gives up on a call after this long; the engine retries it. */
  timeoutMs?: number;
  now?: () => Date;
}

const DEFAULT_CONCURRENCY = 8;

/**
 * SMS through Twilio. One `send` is one attempt per message: one HTTP request each, no SDK
 * retries. Twilio documents no idempotency key for Messages create, so a retry after a timeout
 * can send a second SMS; the engine's attempt budget bounds that.
 */
export function createTwilioProvider(config: TwilioConfig, options: TwilioProviderOptions = {}): Provider {
  if (!config.from && !config.messagingServiceSid) {
    throw new Error(`Twilio provider ${config.name}: give a from number or a Messaging Service SID`);
  }
  const client = createTwilioClient({
    accountSid: config.accountSid,
    authToken: config.authToken,
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const now = options.now ?? (() => new Date());
  // A Messaging Service picks the sender from its pool itself.
  const sender = config.messagingServiceSid ? { messagingServiceSid: config.messagingServiceSid } : { from: config.from! };

  async function sendOne(message: OutboundMessage): Promise<ProviderCallResult> {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    const answer = await withRetryAfter(() =>
      client.messages.create({ to: message.to, body: message.body, ...sender, statusCallback: config.statusCallbackUrl }),
    );
    if ("result" in answer) {
      if (!answer.result.sid) return { outcome: { kind: "retry", reason: "malformed_response" }, latencyMs: latencyMs() };
      return { outcome: { kind: "sent", providerMessageId: answer.result.sid }, latencyMs: latencyMs() };
    }
    const { outcome, suppressStop } = classifyTwilioFailure(twilioFailureOf(answer.error, answer.retryAfter), now());
    return { outcome, latencyMs: latencyMs(), ...(suppressStop ? { suppress: { address: message.to, reason: "stop" as const } } : {}) };
  }

  return {
    name: config.name,
    channel: "sms",
    send: (messages, { onResult, signal, permit } = {}) => mapConcurrently(messages, concurrency, sendOne, { onResult, signal, permit, notStarted: notCalled }),
  };
}

/**
 * `${publicUrl}/webhooks/twilio`: the status callback URL given with every create, and the URL
 * the webhook verifies signatures over. Twilio signs the URL as given, so both must be this one.
 */
export function twilioWebhookUrl(publicUrl: URL | string): string {
  return `${String(publicUrl).replace(/\/+$/, "")}/webhooks/twilio`;
}
