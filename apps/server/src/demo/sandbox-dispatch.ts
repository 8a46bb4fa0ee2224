import { DEFAULT_RETRY_POLICY, type Channel } from "@herald/core";
import { consentHoldsWithin, type Sql, type StatusEvent } from "@herald/db";
import type { Logger } from "pino";
import { BreakerBook } from "../dispatch/breaker-book.ts";
import { dispatchBatch, type DispatchPolicy } from "../dispatch/dispatcher.ts";
import { createTemplateStore } from "../dispatch/template-store.ts";
import type { Provider } from "../providers/provider.ts";
import { createProviderRegistry } from "../providers/provider-registry.ts";
import { createSandboxProvider } from "../providers/sandbox/sandbox-provider.ts";

/** What the sandbox accepted: the provider's id for each notification, and the callbacks it promised. */
export interface SandboxOutcome {
  sent: Array<{ notificationId: string; providerMessageId: string; channel: Channel }>;
  /** Delivered, bounced, complaint, auto-reply: stamped by the caller when they "arrive". */
  callbacks: Array<Omit<StatusEvent, "at">>;
}

/** The demo's batch: the dispatcher's own, minus the job, the pump and the network. */
const BATCH = 500;

/**
 * Sends notifications through the dispatcher exactly as a `send_<channel>` job does — claim,
 * gates, render, pacing, attempts, the sandbox provider, outcomes, suppressions, dead tokens —
 * with the dispatcher's clock at `at`. `sql` is the demo's connection inside its transaction,
 * whose herald.clock the caller has set to the same instant. The sandbox's callbacks are
 * handed back instead of being queued as jobs, so the caller can stamp them in simulated time
 * and apply them through applyStatusEvents, the function every webhook goes through.
 */
export async function sendThroughSandbox(
  sql: Sql,
  ids: ReadonlyArray<{ id: string; channel: Channel }>,
  at: Date,
  options: { defaultTimezone: string; log: Logger; random: () => number },
): Promise<SandboxOutcome> {
  const outcome: SandboxOutcome = { sent: [], callbacks: [] };
  const provider = (channel: Channel): Provider => {
    const sandbox = createSandboxProvider(channel, {
      sql,
      faults: () => ({ failureRate: 0, throttleRate: 0, latencyMs: 0 }),
      deliveryDelayMs: () => 0,
      scheduleStatusEvents: async (events) => {
        for (const { at: _real, ...event } of events) outcome.callbacks.push(event);
      },
      random: options.random,
    });
    return {
      name: sandbox.name,
      channel,
      async send(messages, options) {
        const results = await sandbox.send(messages, options);
        results.forEach((r, i) => {
          if (r.outcome.kind === "sent") outcome.sent.push({ notificationId: messages[i]!.notificationId, providerMessageId: r.outcome.providerMessageId, channel });
        });
        return results;
      },
    };
  };
  const policy: DispatchPolicy = { retry: DEFAULT_RETRY_POLICY, outageMaxAgeMs: 86_400_000, breakerCoolDownMs: 30_000, defaultTimezone: options.defaultTimezone };
  const deps = {
    sql,
    holdConsent: consentHoldsWithin(sql),
    providers: createProviderRegistry({ push: { primary: provider("push") }, email: { primary: provider("email") }, sms: { primary: provider("sms") } }),
    breakers: new BreakerBook(sql, () => ({ failureThreshold: 1_000_000, coolDownMs: 30_000 })),
    policy: async () => policy,
    log: options.log,
    now: () => at,
    random: options.random,
    templates: createTemplateStore(sql),
  };
  for (const channel of ["push", "email", "sms"] as const) {
    const mine = ids.filter((n) => n.channel === channel).map((n) => n.id);
    for (let i = 0; i < mine.length; i += BATCH) await dispatchBatch(deps, channel, mine.slice(i, i + BATCH), "0");
  }
  return outcome;
}
