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

export const BENCH_TEMPLATE_KEY = "bench.receipt";

const RECEIPT_ROWS = Array.from(
  { length: 12 },
  (_, i) => `<tr><td style="padding:4px 8px;border-bottom:1px solid #eee">Item ${i + 1}</td><td align="right" style="padding:4px 8px">{{ data.n | plus: ${i} }}.00</td></tr>`,
).join("\n");

/**
 * What the dispatch scenario sends: a published template with a realistic email (a styled
 * ~2 KB table with a dozen outputs, escaped and sanitised at send), a push and an SMS, so the
 * figure includes Liquid rendering, not just a placeholder swap.
 */
export const BENCH_TEMPLATE_BODY = {
  variables: [{ name: "data.n", type: "number", required: true, example: 42 }],
  content: {
    en: {
      push: { title: "Order {{ data.n }} is paid", body: "Thanks {{ user.email }}: your receipt is ready.", deepLink: "https://example.com/orders/{{ data.n }}" },
      email: {
        subject: "Your receipt for order {{ data.n }}",
        preheader: "Thanks for your order",
        html: `<html><head><style>td { font-family: sans-serif }</style></head><body>
<h1 style="font-size:20px">Thanks, {{ user.email }}</h1>
<p>Order <strong>#{{ data.n }}</strong> is paid. <a href="https://example.com/orders/{{ data.n }}">View it</a>.</p>
<table width="100%" cellpadding="0" cellspacing="0">
${RECEIPT_ROWS}
</table></body></html>`,
      },
      sms: { body: "Order {{ data.n }} is paid. Receipt: https://example.com/r/{{ data.n }}" },
    },
  },
};

/** The dispatch scenario's type: the same three channels, through the template. */
export const BENCH_TEMPLATE_TYPE = {
  channels: (["push", "email", "sms"] as const).map((channel) => ({ channel, category: BENCH_CATEGORY, template: BENCH_TEMPLATE_KEY })),
};

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
