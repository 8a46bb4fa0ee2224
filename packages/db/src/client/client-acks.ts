import type { Sql } from "../sql.ts";

/** What a recipient's app reports about one of its notifications. */
export type ClientAck = "delivered" | "opened" | "read";

/** The notification after an ack; `changed` is false when the ack had nothing left to set. */
export interface AckResult {
  id: string;
  status: string;
  deliveredAt: Date | null;
  openedAt: Date | null;
  readAt: Date | null;
  changed: boolean;
}

/**
 * Applies an app's ack to a notification of that user only, in one statement whatever the id:
 * another user's notification, an unknown id and an unparseable one (pass "0") all cost the same
 * index probe and answer null. The ack's timestamp is set once (the first ack wins, and is
 * logged); `delivered` moves `sent` forward to `delivered`. Only sent or delivered rows take
 * acks, so a pending, failed, bounced, skipped, dead or canceled row is never revived.
 */
export async function ackNotification(sql: Sql, externalUserId: string, id: string, ack: ClientAck): Promise<AckResult | null> {
  const { rows } = await sql.query(
    `WITH target AS (
       SELECT n.id, n.status, n.delivered_at, n.opened_at, n.read_at
         FROM herald.notifications n
        WHERE n.id = $1::bigint AND n.user_id = (SELECT u.id FROM herald.users u WHERE u.external_id = $2)
          FOR UPDATE OF n
     ), upd AS (
       UPDATE herald.notifications n SET
         status = CASE WHEN $3::text = 'delivered' AND n.status = 'sent' THEN 'delivered' ELSE n.status END,
         delivered_at = CASE WHEN $3::text = 'delivered' THEN now() ELSE n.delivered_at END,
         opened_at = CASE WHEN $3::text = 'opened' THEN now() ELSE n.opened_at END,
         read_at = CASE WHEN $3::text = 'read' THEN now() ELSE n.read_at END,
         updated_at = now()
         FROM target t
        WHERE n.id = t.id AND t.status IN ('sent', 'delivered')
          AND CASE $3::text WHEN 'delivered' THEN t.delivered_at WHEN 'opened' THEN t.opened_at ELSE t.read_at END IS NULL
       RETURNING n.id, n.status, n.delivered_at, n.opened_at, n.read_at
     ), logged AS (
       INSERT INTO herald.notification_events (notification_id, type, detail)
       SELECT u.id, $3::text, jsonb_build_object('source', 'client') FROM upd u
     )
     SELECT t.id::text, coalesce(u.status, t.status) AS status, coalesce(u.delivered_at, t.delivered_at) AS delivered_at,
            coalesce(u.opened_at, t.opened_at) AS opened_at, coalesce(u.read_at, t.read_at) AS read_at, u.id IS NOT NULL AS changed
       FROM target t LEFT JOIN upd u ON u.id = t.id`,
    [id, externalUserId, ack],
  );
  const r = rows[0];
  return r
    ? { id: r.id, status: r.status, deliveredAt: r.delivered_at, openedAt: r.opened_at, readAt: r.read_at, changed: r.changed }
    : null;
}
