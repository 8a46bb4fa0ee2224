/** A seeded generator (mulberry32): the same seed builds the same workspace, run after run. */
export interface DemoRandom {
  /** Uniform in [0, 1). */
  next(): number;
  int(min: number, maxInclusive: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** An item drawn by weight. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T;
  /** Exponentially distributed with the given mean: waiting times (an open after a send). */
  exponential(mean: number): number;
}

export function demoRandom(seed: number): DemoRandom {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    weighted(items) {
      const total = items.reduce((sum, [, w]) => sum + w, 0);
      let draw = next() * total;
      for (const [item, weight] of items) {
        draw -= weight;
        if (draw < 0) return item;
      }
      return items[items.length - 1]![0];
    },
    exponential: (mean) => -Math.log(1 - next()) * mean,
  };
}
