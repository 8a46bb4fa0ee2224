import { decideAfterFailure, type BreakerResult, type Channel, type RetryPolicy } from "@herald/core";
import {
  applyDispatchDecisions,
  claimBatch,
  deactivateTokens,
  evaluateGates,
  suppressAddresses,
  takeTokens,
  type ClaimedNotification,
  type ConsentHold,
  type DispatchDecision,
  type GateTuple,
  type GateVerdict,
  type HoldConsent,
  type Sql,
} from "@herald/db";
import type { Logger } from "pino";
import type { OutboundMessage, Provider, ProviderBatchResult, ProviderCallResult, SendOptions } from "../providers/provider.ts";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import type { EmailLinks } from "../links/email-links.ts";
import type { BreakerBook } from "./breaker-book.ts";
import { recordDispatchDecisions } from "../operations/process-metrics.ts";
import { renderMessage } from "./render-message.ts";
import { createResultRecorder } from "./result-recorder.ts";
import { createTemplateStore, type TemplateStore } from "./template-store.ts";
import { TokenGrant } from "./token-grant.ts";

export interface DispatchPolicy {
  retry: RetryPolicy;
  outageMaxAgeMs: number;
  breakerCoolDownMs: number;
  defaultTimezone: string;
}

export interface DispatcherDependencies {
  sql: Sql;
  /** Holds the batch's consent keys across its calls (consentHolds, on a pool of its own). */
  holdConsent: HoldConsent;
  providers: ProviderRegistry;
  breakers: BreakerBook;
  policy: () => Promise<DispatchPolicy>;
  log: Logger;
  now?: () => Date;
  random?: () => number;
  /** List-Unsubscribe headers and tracking links for emails; without it emails go out as rendered. */
  emailLinks?: EmailLinks;
  /** Pinned template versions; a long-lived store keeps them across batches (they never change). */
  templates?: TemplateStore;
}

/** How long an unconfigured channel's notifications wait before the next look. */
const UNCONFIGURED_RECHECK_MS = 5 * 60_000;
/** How long a notification its stopped batch never called waits before it is taken again. */
const WITHDRAWN_RECHECK_MS = 1000;
/** How long a notification waits when a consent change of its recipient is being written. */
const CONSENT_CHANGING_RECHECK_MS = 1000;

/**
 * One batch job of one channel: claim → gates → provider choice (breaker, failover) → render →
 * hold consent and look at the gates again → rate-limit tokens → count the attempts (committed)
 * → call → release → record outcomes. Every decision is written set-based; nothing here loops
 * over SQL per notification.
 */
export async function dispatchBatch(deps: DispatcherDependencies, channel: Channel, ids: readonly string[], jobId: string): Promise<void> {
  const now = deps.now?.() ?? new Date();
  const random = deps.random ?? Math.random;
  const claimed = await claimBatch(deps.sql, ids, jobId);
  if (claimed.length === 0) return;
  const policy = await deps.policy();
  const decisions: DispatchDecision[] = [];

  const verdicts = await evaluateGates(
    deps.sql,
    claimed.map((n) => gateTuple(n, channel)),
    now,
    policy.defaultTimezone,
  );
  const passed: Array<{ n: ClaimedNotification; verdict: GateVerdict; message: OutboundMessage; rendered: Record<string, unknown> }> = [];
  const decorate = channel === "email" ? await deps.emailLinks?.forBatch(claimed) : undefined;
  const templates = await (deps.templates ?? createTemplateStore(deps.sql)).forBatch(claimed);
  claimed.forEach((n, i) => {
    const verdict = verdicts[i]!;
    const refused = refusal(n, verdict);
    if (refused) return decisions.push(refused);
    const rendered = renderMessage(n, verdict, templates, decorate);
    if (!rendered.ok) return decisions.push({ id: n.id, kind: "dead", reason: rendered.reason, ...(rendered.error ? { error: rendered.error } : {}) });
    passed.push({ n, verdict, message: rendered.message, rendered: rendered.rendered });
  });

  const outageExpired = (n: ClaimedNotification) => n.outageSince !== null && now.getTime() - n.outageSince.getTime() >= policy.outageMaxAgeMs;
  const holdBack = (items: typeof passed, reason: string, until: Date) => {
    for (const { n } of items) {
      decisions.push(outageExpired(n) ? { id: n.id, kind: "dead", reason: "outage_max_age" } : { id: n.id, kind: "defer", reason, until, outage: true });
    }
  };

  const route = deps.providers.route(channel);
  let provider: Provider | null = null;
  let sending = passed;
  if (!route) {
    holdBack(passed, "channel_unconfigured", new Date(now.getTime() + UNCONFIGURED_RECHECK_MS));
    sending = [];
  } else if (passed.length > 0) {
    const candidates = [route.primary, ...(route.secondary ? [route.secondary] : [])];
    for (const candidate of candidates) {
      const admitted = await deps.breakers.admit(candidate.name, now);
      if (admitted === "no") continue;
      provider = candidate;
      if (admitted === "trial") {
        // One probe decides whether the provider is back; the rest wait a moment.
        holdBack(passed.slice(1), "breaker_open", new Date(now.getTime() + 1000));
        sending = passed.slice(0, 1);
      }
      break;
    }
    if (!provider) {
      holdBack(passed, "breaker_open", new Date(now.getTime() + policy.breakerCoolDownMs));
      sending = [];
    }
  }

  const chosen = provider;
  let hold: ConsentHold | null = null;
  let grant: TokenGrant | null = null;
  if (chosen && sending.length > 0) {
    hold = await deps.holdConsent(sending.map(({ n, verdict }) => ({ userId: n.userId ?? "0", addresses: consentAddresses(verdict) })));
    try {
      sending = await recheckUnderHold(hold, sending, channel, now, policy.defaultTimezone, decisions);
      // Tokens are taken as late as possible, for what will really be called: a call that trails
      // its token lands in a later second than the bucket counted it in, beside calls whose tokens
      // that second granted, and the provider's own quota sees the two together.
      if (sending.length > 0) {
        const { granted, waitMs, paced } = await takeTokens(deps.sql, chosen.name, sending.length);
        if (paced) {
          grant = new TokenGrant(
            (wanted, returned) => takeTokens(deps.sql, chosen.name, wanted, returned),
            granted,
            (error) => deps.log.warn({ err: error, provider: chosen.name }, "token bucket unreachable: the batch's remaining calls go back to the queue"),
          );
        }
        for (const { n } of sending.slice(granted)) {
          decisions.push({ id: n.id, kind: "wait", until: new Date(now.getTime() + waitMs + Math.floor(random() * 50)) });
        }
        sending = sending.slice(0, granted);
      }
    } catch (error) {
      await hold.release();
      throw error;
    }
  }
  let results: ProviderBatchResult | null = null;
  let recorder: ReturnType<typeof createResultRecorder> | null = null;
  try {
    for (const { n, message, rendered } of sending) {
      decisions.push({ id: n.id, kind: "attempt", provider: chosen!.name, address: message.to, rendered });
    }
    // The attempts commit before any provider call: a crash mid-call still counts.
    await applyDispatchDecisions(deps.sql, decisions);
    recordDispatchDecisions(channel, decisions, claimed, new Date());
    if (!chosen || sending.length === 0) return;

    const calls = sending;
    // The batch stops calling when a call could no longer be recorded (the database went away:
    // whatever it sent next would be sent again) or its consent hold was lost (an opt-out could
    // commit before the next call). What it never called goes back to the queue.
    const stop = new AbortController();
    const stopBecause = (reason: string) => () => {
      if (!stop.signal.aborted) deps.log.warn({ provider: chosen.name, reason }, "batch stopped before its last call");
      stop.abort(reason);
    };
    hold?.lost.addEventListener("abort", stopBecause("consent_hold_lost"), { once: true });
    recorder = createResultRecorder(
      (indexes, results) =>
        // Waits count from the answer, not from the claim: a batch can spend seconds on its calls,
        // and a Retry-After counted from before them would knock again before the provider allows.
        recordResults(deps, chosen, indexes.map((i) => calls[i]!.n), results, policy, deps.now?.() ?? new Date(), random, grant?.refused),
      stopBecause("results_unrecordable"),
    );
    if (hold?.lost.aborted) stopBecause("consent_hold_lost")();
    const listener = recorder;
    results = await callProvider(deps.log, chosen, calls.map((s) => s.message), {
      onResult: (index, result) => listener.add(index, result),
      signal: stop.signal,
      permit: grant?.permit,
    });
  } finally {
    // Before the results are written: a bounce this batch records suppresses an address whose
    // key the hold has, and that write waits for the release.
    await hold?.release();
  }
  if (!recorder || !results) return;
  await recorder.finish(results);
  await results.afterRecorded?.();
}

function gateTuple(n: ClaimedNotification, channel: Channel): GateTuple {
  return { userId: n.userId ?? "0", channel, category: n.category, lane: n.lane };
}

/** What a gate verdict other than "send" does to its notification; null when it may be sent. */
function refusal(n: ClaimedNotification, verdict: GateVerdict): DispatchDecision | null {
  if (verdict.verdict === "skip") return { id: n.id, kind: "skip", reason: verdict.reason!, detail: verdict.detail };
  if (verdict.verdict === "defer") return { id: n.id, kind: "defer", reason: verdict.reason!, until: verdict.deferUntil!, detail: verdict.detail };
  return null;
}

/** The keys a send's address takes: the email or phone it goes to, or each push token. */
function consentAddresses(verdict: GateVerdict): string[] {
  return verdict.tokens ?? (verdict.address ? [verdict.address] : []);
}

/**
 * The gates once more, with the consent keys held: what changed since the first look is read
 * now, and nothing can change until the release. A recipient whose change is being written
 * right now waits a moment; one whose verdict changed gets the new verdict.
 */
async function recheckUnderHold<T extends { n: ClaimedNotification; message: OutboundMessage }>(
  hold: ConsentHold,
  sending: T[],
  channel: Channel,
  now: Date,
  defaultTimezone: string,
  decisions: DispatchDecision[],
): Promise<T[]> {
  const held = sending.filter((_, i) => hold.held[i]);
  for (const { n } of sending.filter((_, i) => !hold.held[i])) {
    decisions.push({ id: n.id, kind: "defer", reason: "consent_changing", until: new Date(now.getTime() + CONSENT_CHANGING_RECHECK_MS) });
  }
  const verdicts = await hold.gates(
    held.map(({ n }) => gateTuple(n, channel)),
    now,
    defaultTimezone,
  );
  const still: T[] = [];
  held.forEach((item, i) => {
    const { n, message } = item;
    const verdict = verdicts[i]!;
    const refused = refusal(n, verdict);
    if (refused) return decisions.push(refused);
    // A device switched off since the first look keeps its token out of the call.
    const usable = new Set(verdict.tokens ?? []);
    still.push(message.tokens ? { ...item, message: { ...message, tokens: message.tokens.filter((t) => usable.has(t)) } } : item);
  });
  return still;
}

/** A provider must not throw for an answer; if it does, that is a bug and every message retries. */
async function callProvider(log: Logger, provider: Provider, messages: OutboundMessage[], options: SendOptions): Promise<ProviderBatchResult> {
  const started = Date.now();
  try {
    const results = await provider.send(messages, options);
    if (results.length !== messages.length) throw new Error(`${provider.name} answered ${results.length} results for ${messages.length} messages`);
    return results;
  } catch (error) {
    log.error({ err: error, provider: provider.name }, "provider threw instead of answering: retrying the batch");
    return messages.map(() => ({ outcome: { kind: "retry", reason: "provider_threw" }, latencyMs: Date.now() - started }));
  }
}

async function recordResults(
  deps: DispatcherDependencies,
  provider: Provider,
  notifications: ClaimedNotification[],
  results: readonly ProviderCallResult[],
  policy: DispatchPolicy,
  now: Date,
  random: () => number,
  refusedTokens: ReadonlySet<string> = new Set(),
): Promise<void> {
  const decisions: DispatchDecision[] = [];
  const breakerResults: BreakerResult[] = [];
  const suppressions = [];
  const invalidTokens = [];
  for (const [i, n] of notifications.entries()) {
    if (results[i]!.notCalled) {
      const reason = refusedTokens.has(n.id) ? "rate_limited" : "batch_stopped";
      decisions.push({ id: n.id, kind: "withdrawn", reason, until: new Date(now.getTime() + WITHDRAWN_RECHECK_MS) });
      continue;
    }
    const { outcome, latencyMs, suppress, invalidTokens: tokens } = results[i]!;
    if (suppress) suppressions.push({ channel: n.channel, address: suppress.address, reason: suppress.reason, source: provider.name });
    if (tokens) invalidTokens.push(...tokens);
    const base = { id: n.id, provider: provider.name, latencyMs, ...("providerCode" in outcome && outcome.providerCode ? { providerCode: outcome.providerCode } : {}) };
    switch (outcome.kind) {
      case "sent":
        breakerResults.push("success");
        decisions.push({ ...base, kind: "sent", providerMessageId: outcome.providerMessageId });
        break;
      case "dead":
        breakerResults.push("recipient_error");
        decisions.push({ ...base, kind: "dead", reason: outcome.reason });
        break;
      case "outage":
        breakerResults.push("outage");
        decisions.push({ ...base, kind: "outage", reason: outcome.reason, until: new Date(now.getTime() + policy.breakerCoolDownMs) });
        break;
      case "retry": {
        breakerResults.push("provider_failure");
        const next = decideAfterFailure({
          outcome,
          attemptCount: n.attemptCount + 1,
          firstAttemptAt: n.firstAttemptAt ?? now,
          deferredMs: n.deferredMs,
          now,
          random,
          policy: policy.retry,
        });
        decisions.push(
          next.kind === "retry"
            ? { ...base, kind: next.attemptSpent ? "retry" : "throttled", reason: outcome.reason, until: outcome.afterMs === undefined ? next.at : wholeSecondAtOrAfter(next.at) }
            : { ...base, kind: "dead", reason: next.reason, error: outcome.reason },
        );
        break;
      }
    }
  }
  await applyDispatchDecisions(deps.sql, decisions);
  recordDispatchDecisions(provider.channel, decisions, notifications, new Date());
  await suppressAddresses(deps.sql, suppressions as Parameters<typeof suppressAddresses>[1]);
  await deactivateTokens(deps.sql, invalidTokens);
  for (const result of breakerResults) await deps.breakers.record(provider.name, result, now);
}

/**
 * The pump gives rows due in the same second one job that runs at the start of that second
 * (herald.pump truncates run_at): a retry due at 12.4 s would run at 12.0 s, before the
 * provider's Retry-After. Rounding a wait the provider asked for up to a whole second keeps it
 * at or after.
 */
function wholeSecondAtOrAfter(at: Date): Date {
  return new Date(Math.ceil(at.getTime() / 1000) * 1000);
}
