import { checkTemplate, NotificationTypeInputSchema, TemplateBodySchema, type Channel } from "@herald/core";
import { createTemplate, publishTemplateDraft, upsertCategory, upsertNotificationType } from "@herald/db";
import type pg from "pg";
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

/** Configuration as code, through the REST API with an admin key: the category and the three-channel bench type. */
export async function configureBenchType(baseUrl: string, authorization: string): Promise<void> {
  const put = async (path: string, body: unknown) => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method: "PUT",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`PUT /api/v1${path} answered ${response.status}: ${text}`);
  };
  await put(`/categories/${BENCH_CATEGORY}`, { label: "Bench" });
  await put(`/notification-types/${BENCH_TYPE}`, BENCH_NOTIFICATION_TYPE);
}

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

/** What a scenario's database needs before its first round: see `prepareWorkload`. */
export interface WorkloadSpec {
  category: string;
  /** Published as version 1, checked as the dashboard checks it. */
  template: { key: string; name: string; channels: Channel[]; body: unknown };
  /** A notification type routed to the template, when events are ingested. */
  notificationType?: { key: string; channels: unknown };
  /** Users u0 … u(count-1), each with an email; optionally a phone, a `rank` attribute (= i) and an active push token. */
  users: { count: number; phone?: boolean; rank?: boolean; device?: boolean };
}

/**
 * A scenario's setup in a handful of set-based statements: a category, an admin member, a
 * published template, optionally a notification type, and a user population every gate lets
 * through. Returns the member, whom broadcasts and templates are attributed to.
 */
export async function prepareWorkload(pool: pg.Pool, spec: WorkloadSpec): Promise<{ memberId: string }> {
  await upsertCategory(pool, spec.category, { label: spec.category[0]!.toUpperCase() + spec.category.slice(1) });
  const { rows } = await pool.query<{ id: string }>(
    "INSERT INTO herald.members (email, name, role, password_hash) VALUES ('bench@example.com', 'Bench', 'admin', '-') RETURNING id::text",
  );
  const memberId = rows[0]!.id;
  const body = TemplateBodySchema.parse(spec.template.body);
  const meta = { channels: spec.template.channels, defaultLocale: "en" };
  await createTemplate(pool, { key: spec.template.key, name: spec.template.name, ...meta, defaultCategory: spec.category, memberId, draft: body });
  const published = await publishTemplateDraft(pool, spec.template.key, memberId, () => checkTemplate({ meta, body }));
  if (published.kind !== "published") throw new Error(`the bench template ${spec.template.key} did not publish: ${JSON.stringify(published)}`);
  if (spec.notificationType) {
    await upsertNotificationType(pool, spec.notificationType.key, NotificationTypeInputSchema.parse({ channels: spec.notificationType.channels }).channels);
  }
  const { count, phone = false, rank = false, device = false } = spec.users;
  await pool.query(
    `INSERT INTO herald.users (external_id, email, phone, attributes)
     SELECT 'u' || i, 'u' || i || '@example.com',
            CASE WHEN $2 THEN '+1555' || lpad(i::text, 7, '0') END,
            CASE WHEN $3 THEN jsonb_build_object('rank', i) ELSE '{}'::jsonb END
       FROM generate_series(0, $1::int - 1) i`,
    [count, phone, rank],
  );
  if (device) await pool.query("INSERT INTO herald.devices (user_id, token, platform) SELECT id, 'token-' || external_id, 'ios' FROM herald.users");
  await pool.query(device ? "ANALYZE herald.users; ANALYZE herald.devices" : "ANALYZE herald.users");
  return { memberId };
}
