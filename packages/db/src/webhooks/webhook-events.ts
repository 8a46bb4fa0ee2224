import type { Sql } from "../sql.ts";

export interface InboundWebhookEvent {
  provider: "ses" | "twilio" | "fcm" | "webhook";
  /** The provider's own id for this event (SNS MessageId, Twilio SID + status, …). */
  eventKey: string;
  kind: string;
  providerMessageId: string | null;
  raw: string;
}

/** Keeps a verified webhook once; false when the provider already delivered this event. */
export async function recordWebhookEvent(sql: Sql, event: InboundWebhookEvent): Promise<{ id: string } | null> {
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO herald.webhook_events (provider, event_key, kind, provider_message_id, raw)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (provider, event_key) DO NOTHING
     RETURNING id::text`,
    [event.provider, event.eventKey, event.kind, event.providerMessageId, event.raw],
  );
  return rows[0] ?? null;
}

/**
 * Keeps a verified webhook once and, when it has something to apply, queues its
 * `apply_webhook_events` job, in one statement: atomic without a transaction (a row with no job
 * would stay pending for good), and one round trip where BEGIN, insert, add_job and COMMIT took
 * four, each holding a pool connection while a webhook flood waited for one. Without anything to
 * apply the row is kept as `ignored`. Null when the provider already delivered this event.
 */
export async function recordAndQueueWebhookEvent(sql: Sql, event: InboundWebhookEvent, apply: boolean): Promise<{ id: string } | null> {
  const { rows } = await sql.query<{ id: string }>(
    `WITH row AS (
       INSERT INTO herald.webhook_events (provider, event_key, kind, provider_message_id, raw, state, applied_at)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $6 THEN 'pending' ELSE 'ignored' END, CASE WHEN $6 THEN NULL ELSE now() END)
       ON CONFLICT (provider, event_key) DO NOTHING
       RETURNING id
     )
     SELECT id::text, CASE WHEN $6 THEN (graphile_worker.add_job('apply_webhook_events', json_build_object('ids', json_build_array(id::text)))).id END AS job
       FROM row`,
    [event.provider, event.eventKey, event.kind, event.providerMessageId, event.raw, apply],
  );
  return rows[0] ? { id: rows[0].id } : null;
}

export async function markWebhookEvents(sql: Sql, ids: readonly string[], state: "applied" | "orphan" | "ignored"): Promise<void> {
  if (ids.length === 0) return;
  await sql.query("UPDATE herald.webhook_events SET state = $2, applied_at = now() WHERE id = ANY ($1::bigint[])", [ids, state]);
}

export interface OrphanWebhook {
  id: string;
  provider: string;
  kind: string;
  providerMessageId: string | null;
  receivedAt: Date;
}

/** Webhooks for messages Herald does not know (answered 200 and kept for the operators). */
export async function listOrphanWebhooks(sql: Sql, limit: number): Promise<OrphanWebhook[]> {
  const { rows } = await sql.query(
    `SELECT id::text, provider, kind, provider_message_id, received_at FROM herald.webhook_events
      WHERE state = 'orphan' ORDER BY received_at DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ id: r.id, provider: r.provider, kind: r.kind, providerMessageId: r.provider_message_id, receivedAt: r.received_at }));
}

export interface PendingWebhookEvent {
  id: string;
  provider: string;
  raw: string;
  /** Received within the grace period: an unknown message id may still be a send not yet committed. */
  fresh: boolean;
}

/** The recorded webhooks among `ids` still waiting to be applied, oldest first. */
export async function loadPendingWebhookEvents(sql: Sql, ids: readonly string[], graceMs: number): Promise<PendingWebhookEvent[]> {
  const { rows } = await sql.query<PendingWebhookEvent>(
    `SELECT id::text, provider, raw, received_at > now() - make_interval(secs => $2::float8 / 1000) AS fresh
       FROM herald.webhook_events WHERE id = ANY ($1::bigint[]) AND state = 'pending' ORDER BY id`,
    [ids, graceMs],
  );
  return rows;
}

// Overdue: still `sent`, and neither looked up before nor already reported terminal by a callback
// that is waiting for its job. Each message is looked up once: a carrier that never reports
// delivery leaves it `sent` at Twilio too, and asking again would not change that.
/** Twilio message SIDs whose status callback is overdue (Twilio never retries callbacks). */
export async function listOverdueTwilioMessages(sql: Sql, olderThanMs: number, maxAgeMs: number, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ sid: string }>(
    `SELECT n.provider_message_id AS sid FROM herald.notifications n
      WHERE n.channel = 'sms' AND n.provider LIKE 'twilio%' AND n.status = 'sent'
        AND n.provider_message_id IS NOT NULL
        AND n.sent_at < now() - make_interval(secs => $1::float8 / 1000)
        AND n.sent_at > now() - make_interval(secs => $2::float8 / 1000)
        AND NOT EXISTS (
          SELECT 1 FROM herald.webhook_events w
           WHERE w.provider = 'twilio' AND w.provider_message_id = n.provider_message_id
             AND (w.event_key LIKE '%:reconciled' OR w.kind IN ('delivered', 'undelivered', 'failed', 'read')))
      ORDER BY n.sent_at
      LIMIT $3`,
    [olderThanMs, maxAgeMs, limit],
  );
  return rows.map((r) => r.sid);
}
