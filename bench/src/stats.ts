/** The median and spread of one contender's repetitions. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  samples: number[];
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error("summarize: no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)!, samples: [...samples] };
}

/** Nearest-rank percentile (p in 0..100) of latencies; the p95 of 20 samples is the 19th. */
export function percentile(values: ArrayLike<number>, p: number): number {
  if (values.length === 0) throw new Error("percentile: no values");
  const sorted = Float64Array.from(values).sort();
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
