import type { Channel } from "../channels/channels.ts";
import { twoProportionZTest, type ZTestResult } from "./z-test.ts";

/** One group of a broadcast's rows, as packages/db counts them. */
export interface ProgressSlice {
  channel: Channel;
  version: number | null;
  status: string;
  reason: string | null;
  count: number;
  delivered: number;
  opened: number;
  clicked: number;
}

/** The counters the dashboard shows while a broadcast runs, and its funnel when done. */
export interface Funnel {
  targeted: number;
  /** Still waiting to be sent (queued, deferred, retrying or paused). */
  pending: number;
  /** Handed to a provider: sent or any later status. */
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  failed: number;
  skipped: number;
  canceled: number;
  /** Skipped and dead rows by reason code. */
  byReason: Record<string, number>;
}

const HANDED_OVER = new Set(["sent", "delivered", "failed", "bounced"]);

function emptyFunnel(): Funnel {
  return { targeted: 0, pending: 0, sent: 0, delivered: 0, opened: 0, clicked: 0, failed: 0, skipped: 0, canceled: 0, byReason: {} };
}

/** Folds slices into one funnel. */
export function funnelOf(slices: readonly ProgressSlice[]): Funnel {
  const f = emptyFunnel();
  for (const s of slices) {
    f.targeted += s.count;
    f.delivered += s.delivered;
    f.opened += s.opened;
    f.clicked += s.clicked;
    if (s.status === "pending") f.pending += s.count;
    else if (HANDED_OVER.has(s.status)) f.sent += s.count;
    else if (s.status === "canceled") f.canceled += s.count;
    if (s.status === "failed" || s.status === "bounced" || s.status === "dead") f.failed += s.count;
    if (s.status === "skipped") f.skipped += s.count;
    if (s.reason && (s.status === "skipped" || s.status === "dead")) f.byReason[s.reason] = (f.byReason[s.reason] ?? 0) + s.count;
  }
  return f;
}

export interface VariantComparison {
  channel: Channel;
  /** The first variant is the control ("A"); each other is compared against it. */
  control: number;
  challenger: number;
  opens: ZTestResult;
  clicks: ZTestResult;
}

export interface BroadcastReport {
  total: Funnel;
  byChannel: Array<{ channel: Channel; funnel: Funnel }>;
  byVariant: Array<{ channel: Channel; version: number; funnel: Funnel }>;
  comparisons: VariantComparison[];
}

/**
 * The report: the funnel overall, per channel and per channel × variant, and each challenger
 * variant against the control on open and click rates (out of delivered; out of sent where the
 * channel reports no deliveries), by a two-proportion z-test.
 */
export function broadcastReport(slices: readonly ProgressSlice[], variantOrder: readonly number[]): BroadcastReport {
  const channels = [...new Set(slices.map((s) => s.channel))].sort();
  const byChannel = channels.map((channel) => ({ channel, funnel: funnelOf(slices.filter((s) => s.channel === channel)) }));
  const byVariant = channels.flatMap((channel) =>
    variantOrder.map((version) => ({ channel, version, funnel: funnelOf(slices.filter((s) => s.channel === channel && s.version === version)) })),
  );
  const comparisons: VariantComparison[] = [];
  const [control, ...challengers] = variantOrder;
  if (control !== undefined) {
    for (const channel of channels) {
      const a = byVariant.find((v) => v.channel === channel && v.version === control)!.funnel;
      for (const challenger of challengers) {
        const b = byVariant.find((v) => v.channel === channel && v.version === challenger)!.funnel;
        const base = (f: Funnel) => (f.delivered > 0 ? f.delivered : f.sent);
        comparisons.push({
          channel,
          control,
          challenger,
          opens: twoProportionZTest({ successes: a.opened, trials: base(a) }, { successes: b.opened, trials: base(b) }),
          clicks: twoProportionZTest({ successes: a.clicked, trials: base(a) }, { successes: b.clicked, trials: base(b) }),
        });
      }
    }
  }
  return { total: funnelOf(slices), byChannel, byVariant, comparisons };
}

/** The report's funnel as CSV (one row per channel × variant, then totals per channel). */
export function reportCsv(report: BroadcastReport): string {
  const header = ["channel", "variant", "targeted", "sent", "delivered", "opened", "clicked", "failed", "skipped", "canceled", "pending"];
  const row = (channel: string, variant: string, f: Funnel) =>
    [channel, variant, f.targeted, f.sent, f.delivered, f.opened, f.clicked, f.failed, f.skipped, f.canceled, f.pending].join(",");
  return [
    header.join(","),
    ...report.byVariant.map((v) => row(v.channel, `v${v.version}`, v.funnel)),
    ...report.byChannel.map((c) => row(c.channel, "all", c.funnel)),
    row("all", "all", report.total),
  ].join("\n") + "\n";
}
