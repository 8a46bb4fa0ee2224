import { hostname } from "node:os";
import type { Channel } from "@herald/core";
import type { ClaimedNotification, DispatchDecision } from "@herald/db";
import { Counter, Histogram, Registry } from "prom-client";

/**
 * Counters and histograms this process records as it works. Each process has its own (a scrape
 * of one process never sees another's sends), so every series carries `herald_process`
 * (host:pid) and Prometheus sums across processes. What describes the database instead (queue
 * depth, breakers) is read from Postgres at scrape time: see database-metrics.ts.
 */
export const processRegistry = new Registry();
processRegistry.setDefaultLabels({ herald_process: `${hostname()}:${process.pid}` });

const sends = new Counter({
  name: "herald_sends_total",
  help: "Provider calls by provider and outcome (sent, retry, dead, outage).",
  labelNames: ["provider", "outcome"] as const,
  registers: [processRegistry],
});

const sendLatency = new Histogram({
  name: "herald_send_latency_seconds",
  help: "How long one provider call took, by provider.",
  labelNames: ["provider"] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [processRegistry],
});

const endToEndLatency = new Histogram({
  name: "herald_end_to_end_latency_seconds",
  help: "From the notification's creation (its event came in) to the provider accepting it, by channel and lane.",
  labelNames: ["channel", "lane"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21600, 86400],
  registers: [processRegistry],
});

const gateSkips = new Counter({
  name: "herald_gate_skips_total",
  help: "Notifications a send-time gate skipped, by channel and reason code.",
  labelNames: ["channel", "reason"] as const,
  registers: [processRegistry],
});

const webhooks = new Counter({
  name: "herald_webhooks_total",
  help: "Provider webhooks received and recorded (duplicates excluded), by provider and type.",
  labelNames: ["provider", "type"] as const,
  registers: [processRegistry],
});

const webhooksRefused = new Counter({
  name: "herald_webhooks_refused_total",
  help: "Provider webhooks answered 503 at once because the process held as many as it takes, by provider.",
  labelNames: ["provider"] as const,
  registers: [processRegistry],
});

/** Counts one batch's decisions once they are written (after applyDispatchDecisions). */
export function recordDispatchDecisions(channel: Channel, decisions: readonly DispatchDecision[], claimed: readonly ClaimedNotification[], now: Date): void {
  const byId = new Map(claimed.map((n) => [n.id, n]));
  for (const d of decisions) {
    if (d.kind === "skip") gateSkips.inc({ channel, reason: d.reason });
    if (d.kind !== "sent" && d.kind !== "retry" && d.kind !== "throttled" && d.kind !== "outage" && d.kind !== "dead") continue;
    // A dead-letter without a provider never reached one (content that cannot render, age exhausted).
    if (!d.provider || d.latencyMs === undefined) continue;
    sends.inc({ provider: d.provider, outcome: d.kind });
    sendLatency.observe({ provider: d.provider }, d.latencyMs / 1000);
    const n = byId.get(d.id);
    if (d.kind === "sent" && n) endToEndLatency.observe({ channel, lane: n.lane }, Math.max(0, now.getTime() - n.createdAt.getTime()) / 1000);
  }
}

/** Counts one webhook that was recorded (not a provider's repeated delivery of it). */
export function recordWebhook(provider: string, type: string): void {
  webhooks.inc({ provider, type });
}

/** Counts one webhook refused by the webhook routes' admission limit. */
export function recordWebhookRefused(provider: string): void {
  webhooksRefused.inc({ provider });
}
