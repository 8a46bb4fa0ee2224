import type { Sql } from "../sql.ts";

/**
 * Queues a copy of a notification — same user, type, channel, category, lane, pinned template
 * version, content and variables — as a new row linked to it by resent_from_id. The copy enters
 * the outbox exactly as ingest leaves a row (queued, no job yet), so the pump and the send-time
 * gates treat it like any other send: an opted-out user's resend is skipped with its reason.
 * It leaves any broadcast out, so a broadcast's report still counts what the broadcast sent.
 * Null when there is no such notification or it has no user any more.
 */
export async function resendNotification(sql: Sql, id: string, resentBy: string): Promise<{ id: string } | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const { rows } = await sql.query<{ id: string }>(
    `WITH created AS (
       INSERT INTO herald.notifications
         (dedup_key, event_ref, user_id, type, channel, category, lane, template_key, template_version, content, locale, vars, resent_from_id)
       SELECT 'resend:' || o.id || ':' || gen_random_uuid(), o.event_ref, o.user_id, o.type, o.channel, o.category, o.lane,
              o.template_key, o.template_version, o.content, o.locale, o.vars, o.id
         FROM herald.notifications o
        WHERE o.id = $1 AND o.user_id IS NOT NULL
       RETURNING id, resent_from_id
     ), logged AS (
       INSERT INTO herald.notification_events (notification_id, type, detail)
       SELECT c.id, 'created', jsonb_build_object('resentFrom', c.resent_from_id::text, 'by', $2::text) FROM created c
     )
     SELECT id::text FROM created`,
    [id, resentBy],
  );
  return rows[0] ?? null;
}
