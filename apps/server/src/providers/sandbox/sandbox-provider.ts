import { randomUUID } from "node:crypto";
import { sandboxScript, type Channel } from "@herald/core";
import { insertSandboxMessages, type Sql, type StatusEvent } from "@herald/db";
import { notCalled, type OutboundMessage, type Provider, type ProviderBatchResult, type ProviderCallResult, type SendOptions } from "../provider.ts";

/** Fault settings for demos and load tests (the reliability suite has its own wire-level simulator). */
export interface SandboxFaults {
  /** Share of sends answered with a transient failure, 0..1. */
  failureRate: number;
  /** Share of sends answered 429 with Retry-After, 0..1. */
  throttleRate: number;
  latencyMs: number;
}

export interface SandboxDependencies {
  sql: Sql;
  faults: () => SandboxFaults;
  /** Schedules the provider's asynchronous callbacks (delivered, bounced, …) through the webhook path. */
  scheduleStatusEvents: (events: StatusEvent[], delayMs: number) => Promise<void>;
  deliveryDelayMs: () => number;
  random?: () => number;
}

/**
 * Records every message in Postgres and answers like the real services do for their test
 * identities (SES mailbox simulator addresses, Twilio magic numbers, invalid push tokens).
 */
export function createSandboxProvider(channel: Channel, deps: SandboxDependencies): Provider {
  const random = deps.random ?? Math.random;
  return {
    name: `sandbox-${channel}`,
    channel,
    async send(messages: readonly OutboundMessage[], { permit }: SendOptions = {}): Promise<ProviderBatchResult> {
      const started = Date.now();
      const faults = deps.faults();
      const delayMs = deps.deliveryDelayMs();
      if (faults.latencyMs > 0) await new Promise((r) => setTimeout(r, faults.latencyMs));
      const permitted = permit ? await Promise.all(messages.map(permit)) : null;
      const accepted: Array<{ message: OutboundMessage; providerMessageId: string; to: string }> = [];
      // Stamped when scheduled, after the sends are recorded: a callback never precedes its send.
      const events: Array<Omit<StatusEvent, "at">> = [];
      const results = messages.map((message, i): ProviderCallResult => {
        if (permitted && !permitted[i]) return notCalled();
        const latencyMs = () => Date.now() - started;
        const draw = random();
        if (draw < faults.throttleRate) {
          return { outcome: { kind: "retry", reason: "throttled", afterMs: 60_000, providerCode: "429" }, latencyMs: latencyMs() };
        }
        if (draw < faults.throttleRate + faults.failureRate) {
          return { outcome: { kind: "retry", reason: "sandbox_fault", providerCode: "500" }, latencyMs: latencyMs() };
        }
        if (channel === "push") return sendPush(message, accepted, events, latencyMs);
        const script = sandboxScript(channel, message.to);
        const result: ProviderCallResult = { outcome: { kind: "sent", providerMessageId: "" }, latencyMs: 0 };
        if (script.suppress === "stop") result.suppress = { address: message.to, reason: "stop" };
        if (script.immediate.kind === "dead") {
          return { ...result, outcome: { kind: "dead", reason: script.immediate.reason, providerCode: script.immediate.providerCode }, latencyMs: latencyMs() };
        }
        if (script.immediate.kind === "retry") {
          return { outcome: { kind: "retry", reason: script.immediate.reason, afterMs: script.immediate.afterMs }, latencyMs: latencyMs() };
        }
        const providerMessageId = `sandbox-${randomUUID()}`;
        accepted.push({ message, providerMessageId, to: message.to });
        for (const later of script.later) {
          const suppress = later.event === "bounced" || later.event === "complaint" ? script.suppress : undefined;
          events.push({
            providerMessageId,
            kind: later.event,
            detail: { provider: `sandbox-${channel}`, ...later.detail },
            ...(suppress && suppress !== "stop" ? { suppress } : {}),
            source: `sandbox-${channel}`,
          });
        }
        return { outcome: { kind: "sent", providerMessageId }, latencyMs: latencyMs() };
      });
      await insertSandboxMessages(
        deps.sql,
        accepted.map(({ message, providerMessageId, to }) => ({
          notificationId: message.notificationId,
          providerMessageId,
          channel,
          recipient: to,
          subject: message.subject ?? null,
          title: message.title ?? null,
          body: message.body,
          headers: message.headers ?? null,
          data: Object.keys(message.data).length ? message.data : null,
        })),
      );
      const batch: ProviderBatchResult = results;
      if (events.length > 0) {
        batch.afterRecorded = async () => {
          const at = new Date(Date.now() + delayMs);
          await deps.scheduleStatusEvents(events.map((e) => ({ ...e, at })), delayMs);
        };
      }
      return batch;
    },
  };
}

/** Push: per-token results; the message counts as sent when at least one token accepted it. */
function sendPush(
  message: OutboundMessage,
  accepted: Array<{ message: OutboundMessage; providerMessageId: string; to: string }>,
  events: Array<Omit<StatusEvent, "at">>,
  latencyMs: () => number,
): ProviderCallResult {
  const invalidTokens: Array<{ token: string; reason: string }> = [];
  let anyRetry = false;
  let delivered: string | null = null;
  for (const token of message.tokens ?? []) {
    const script = sandboxScript("push", token);
    if (script.deactivateToken) invalidTokens.push({ token, reason: script.deactivateToken });
    else if (script.immediate.kind === "retry") anyRetry = true;
    else if (script.immediate.kind === "sent") delivered ??= token;
  }
  if (delivered) {
    const providerMessageId = `sandbox-${randomUUID()}`;
    accepted.push({ message, providerMessageId, to: delivered });
    events.push({ providerMessageId, kind: "delivered", detail: { provider: "sandbox-push" }, source: "sandbox-push" });
    return { outcome: { kind: "sent", providerMessageId }, latencyMs: latencyMs(), invalidTokens };
  }
  if (anyRetry) return { outcome: { kind: "retry", reason: "unavailable", providerCode: "UNAVAILABLE" }, latencyMs: latencyMs(), invalidTokens };
  return {
    outcome: { kind: "dead", reason: "provider_rejected:unregistered", providerCode: "UNREGISTERED" },
    latencyMs: latencyMs(),
    invalidTokens,
  };
}
