import { ingestEvents, type Sql } from "@herald/db";

/** One event type sent on all three channels: each user gets an email, an SMS and a push. */
export const CHANNELS_PER_EVENT = 3;

/** Users with an address on every channel and one device each, and the `news` type. */
export async function seedWorkload(sql: Sql, users: number): Promise<void> {
  await sql.query(`
    INSERT INTO herald.categories (key, label) VALUES ('news', 'News');
    INSERT INTO herald.notification_types (type, channels) VALUES ('news', '[
      {"channel": "email", "category": "news", "content": {"subject": "News", "body": "news"}},
      {"channel": "sms", "category": "news", "content": {"body": "news"}},
      {"channel": "push", "category": "news", "content": {"title": "News", "body": "news"}}
    ]')`);
  await sql.query(
    `INSERT INTO herald.users (external_id, email, phone)
     SELECT 'u-' || g, 'u' || g || '@chaos.example', '+49151' || lpad(g::text, 8, '0') FROM generate_series(1, $1::int) g`,
    [users],
  );
  await sql.query(`INSERT INTO herald.devices (user_id, token, platform) SELECT id, 'device-' || external_id, 'android' FROM herald.users`);
}

/** One `news` event per user, in batches of 500 (the ingest function's set-based path). */
export async function emitNews(sql: Sql, users: number, prefix = "news"): Promise<number> {
  for (let from = 1; from <= users; from += 500) {
    const events = [];
    for (let i = from; i < Math.min(from + 500, users + 1); i++) events.push({ eventId: `${prefix}-${i}`, type: "news", userId: `u-${i}` });
    await ingestEvents(sql, events);
  }
  return users * CHANNELS_PER_EVENT;
}

/** The addresses of user `n` on each channel, as the simulator's ledger sees them. */
export function addressesOf(n: number): { email: string; sms: string; push: string } {
  return { email: `u${n}@chaos.example`, sms: `+49151${String(n).padStart(8, "0")}`, push: `device-u-${n}` };
}
