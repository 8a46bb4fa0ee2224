import type { Sql } from "../../src/sql.ts";

/** A category and a notification type routing `type` to the given channels with inline content. */
export async function routeType(
  sql: Sql,
  type: string,
  steps: Array<{ channel: "push" | "email" | "sms"; category?: string; lane?: "critical" | "bulk" }>,
): Promise<void> {
  await sql.query(
    `INSERT INTO herald.categories (key, label) VALUES ('transactional', 'Transactional'), ('marketing', 'Marketing')
     ON CONFLICT DO NOTHING`,
  );
  const channels = steps.map((s) => ({
    channel: s.channel,
    category: s.category ?? "transactional",
    lane: s.lane ?? "bulk",
    content: { subject: "Hello", title: "Hello", body: "Hello {{ user.email }}" },
  }));
  await sql.query(
    `INSERT INTO herald.notification_types (type, channels) VALUES ($1, $2::jsonb)
     ON CONFLICT (type) DO UPDATE SET channels = EXCLUDED.channels`,
    [type, JSON.stringify(channels)],
  );
}
