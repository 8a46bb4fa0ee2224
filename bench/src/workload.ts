import { mulberry32, randomInt } from "./random.ts";

/** One event as POST /api/v1/events takes it (and as the baselines store it). */
export interface BenchEvent {
  eventId: string;
  type: string;
  userId: string;
  data: { n: number };
}

export const BENCH_TYPE = "bench.event";
export const BENCH_CATEGORY = "bench";
export const USER_POOL = 10_000;

/** The notification type every bench event is routed by: three channels, inline content. */
export const BENCH_NOTIFICATION_TYPE = {
  channels: [
    { channel: "push", category: BENCH_CATEGORY, content: { title: "t", body: "b" } },
    { channel: "email", category: BENCH_CATEGORY, content: { subject: "s", body: "b" } },
    { channel: "sms", category: BENCH_CATEGORY, content: { body: "b" } },
  ],
} as const;

/** External id of pool user i: u0 … u9999. */
export function userExternalId(i: number): string {
  return `u${i}`;
}

/**
 * `count` events with unique ids (`prefix` keeps rounds apart) for users drawn uniformly from
 * the pool. The same seed and prefix always give the same events.
 */
export function generateEvents(seed: number, prefix: string, count: number): BenchEvent[] {
  const random = mulberry32(seed ^ hash(prefix));
  return Array.from({ length: count }, (_, n) => ({
    eventId: `${prefix}-${n}`,
    type: BENCH_TYPE,
    userId: userExternalId(randomInt(random, USER_POOL)),
    data: { n },
  }));
}

/** A small string hash (FNV-1a), to derive a seed per round. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
