import type { Scale } from "./scenario.ts";

/**
 * N per scale: events for ingest and emit, notifications for dispatch, users for fan-out and
 * segments. `small` is sized to finish the whole run in under 2 minutes on a 2-core machine
 * (the bound): its figures show that every scenario runs and how the contenders
 * compare, while the targets are stated, and met or missed, at `large`.
 */
const SIZES = {
  ingest: { small: 800, medium: 20_000, large: 100_000, tiny: 500 },
  // Whole batches of 1,000; at large the api-only server's outbox stays under its 2,000,000 backlog limit.
  ingestBatch: { small: 4_000, medium: 50_000, large: 150_000, tiny: 2_000 },
  emit: { small: 600, medium: 20_000, large: 100_000, tiny: 500 },
  dispatch: { small: 1_000, medium: 50_000, large: 200_000, tiny: 600 },
  fanout: { small: 10_000, medium: 200_000, large: 1_000_000, tiny: 2_000 },
  segmentCount: { small: 5_000, medium: 200_000, large: 1_000_000, tiny: 2_000 },
  timeline: { small: 50_000, medium: 1_000_000, large: 10_000_000, tiny: 10_000 },
} as const;

export function sizeOf(scenario: keyof typeof SIZES, scale: Scale, tiny: boolean): number {
  return tiny ? SIZES[scenario].tiny : SIZES[scenario][scale];
}

/** A tenth of a round, at least 100 and at most 5,000 units: enough to warm caches and the JIT. */
export function warmupSizeOf(size: number): number {
  return Math.min(5_000, Math.max(100, Math.round(size / 10)));
}
