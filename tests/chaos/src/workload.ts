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

/**
 * One `news` event for each of `users` users from user `firstUser` on, in batches of 500 (the
 * ingest function's set-based path). A user gets one SMS per scenario: the ledger finds an SMS's
 * notification by its number, Twilio's request carrying no id of Herald's.
 */
export async function emitNews(sql: Sql, users: number, prefix = "news", firstUser = 1): Promise<number> {
  const last = firstUser + users - 1;
  for (let from = firstUser; from <= last; from += 500) {
    const events = [];
    for (let i = from; i < Math.min(from + 500, last + 1); i++) events.push({ eventId: `${prefix}-${i}`, type: "news", userId: `u-${i}` });
    await ingestEvents(sql, events);
  }
  return users * CHANNELS_PER_EVENT;
}

/** The addresses of user `n` on each channel, as the simulator's ledger sees them. */
export function addressesOf(n: number): { email: string; sms: string; push: string } {
  return { email: `u${n}@chaos.example`, sms: `+49151${String(n).padStart(8, "0")}`, push: `device-u-${n}` };
}
