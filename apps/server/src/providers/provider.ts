import type { Channel, SendOutcome } from "@herald/core";

/** One rendered message, ready for a provider. */
export interface OutboundMessage {
  notificationId: string;
  channel: Channel;
  lane: "critical" | "bulk";
  /** Email address or E.164 number; for push, the user's id (tokens go in `tokens`). */
  to: string;
  tokens?: string[];
  subject?: string;
  title?: string;
  body: string;
  html?: string;
  /** Push only: a large image the notification shows, and where a tap leads (also in data.deep_link). */
  imageUrl?: string;
  deepLink?: string;
  /** Flat string map; push always carries notification_id in it. */
  data: Record<string, string>;
  headers?: Record<string, string>;
}

/** A provider's answer for one message: the typed outcome plus what it taught us. */
export interface ProviderCallResult {
  outcome: SendOutcome;
  latencyMs: number;
  /** Addresses the provider says are dead for good (a STOP reply, say). */
  suppress?: { address: string; reason: "hard_bounce" | "complaint" | "stop" };
  /** Push tokens the provider rejected as unregistered or invalid. */
  invalidTokens?: Array<{ token: string; reason: string }>;
  /** The message was never sent: the batch was stopped (its signal aborted) before its turn. */
  notCalled?: true;
}

/** The answer for a message a stopped batch never called: nothing reached the provider. */
export function notCalled(): ProviderCallResult {
  return { outcome: { kind: "retry", reason: "not_called" }, latencyMs: 0, notCalled: true };
}

/** Hears the result of message `index` of a `send` as soon as it is known. */
export type ResultListener = (index: number, result: ProviderCallResult) => void;

/** A batch's answers, and what the provider wants done once Herald has recorded them. */
export type ProviderBatchResult = ProviderCallResult[] & {
  /**
   * Runs after the outcomes are committed: the sandbox schedules its simulated callbacks here,
   * so a callback can never arrive before the send it reports on is recorded.
   */
  afterRecorded?: () => Promise<void>;
};

/**
 * Asked for each message right before its first call starts; a message refused is not called
 * (the provider answers notCalled() for it). The dispatcher's token grant for a paced provider:
 * it hands each call a token no older than TOKEN_STALE_MS (250 ms), so a slow first wave cannot
 * leave the batch's last calls to land a second after the bucket counted them.
 */
export type CallPermit = (message: OutboundMessage) => boolean | Promise<boolean>;

/** What a `send` is given beside its messages; each part is optional. */
export interface SendOptions {
  /**
   * Hears each message's result as soon as it is known, when the provider can, so the dispatcher
   * records it while the rest of the batch is still being sent: a crash then leaves only the
   * calls in flight unrecorded, not everything the batch sent so far.
   */
  onResult?: ResultListener | undefined;
  /**
   * Aborts when the batch must stop (its results can no longer be recorded, or its consent hold
   * was lost): a provider that calls in turns starts no further call and answers notCalled() for
   * each message it never sent.
   */
  signal?: AbortSignal | undefined;
  /** Asked before each message's first call; every provider that paces honours it. */
  permit?: CallPermit | undefined;
}

/**
 * A channel's delivery service. `send` never throws for a provider's answer (a throw is a bug and
 * the dispatcher counts it as a retry); it answers one result per message, in order.
 */
export interface Provider {
  /** Stable name, used for the token bucket, the breaker and the notification row. */
  readonly name: string;
  readonly channel: Channel;
  send(messages: readonly OutboundMessage[], options?: SendOptions): Promise<ProviderCallResult[] | ProviderBatchResult>;
}
