import { funnelOf, type Channel, type Funnel, type ProgressSlice } from "@herald/core";

/** What a running broadcast's page polls: the funnel overall and per channel, nothing per variant. */
export interface LiveProgress {
  total: Funnel;
  byChannel: Array<{ channel: Channel; funnel: Funnel }>;
}

/** Folds the live rows into the counters; the report's z-tests are left to `broadcasts.report`. */
export function liveProgress(slices: readonly ProgressSlice[]): LiveProgress {
  const channels = [...new Set(slices.map((s) => s.channel))].sort();
  return { total: funnelOf(slices), byChannel: channels.map((channel) => ({ channel, funnel: funnelOf(slices.filter((s) => s.channel === channel)) })) };
}
