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

/** A verified webhook to keep, and whether it has anything for `apply_webhook_events` to apply. */
export interface WebhookToRecord extends InboundWebhookEvent {
  apply: boolean;
}

/** The most webhooks one call records: `apply_webhook_events` takes at most 1,000 ids. */
export const MAX_WEBHOOK_GROUP = 1000;

/**
 * Keeps a group of verified webhooks once each and queues one `apply_webhook_events` job for
 * those with something to apply, in one statement: atomic without a transaction (a row with no
 * job would stay pending for good), and one commit and one job for the group where each webhook
 * took its own. Rows with nothing to apply are kept as `ignored`. For each event, in order: its
 * new row's id, or null when the provider already delivered it (before, or earlier in the group).
 */
export async function recordAndQueueWebhookEvents(sql: Sql, events: readonly WebhookToRecord[]): Promise<(string | null)[]> {
  if (events.length === 0) return [];
  if (events.length > MAX_WEBHOOK_GROUP) throw new RangeError(`at most ${MAX_WEBHOOK_GROUP} webhooks per group, not ${events.length}`);
  const { rows } = await sql.query<{ provider: string; event_key: string; id: string }>(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[]) WITH ORDINALITY
         AS e(provider, event_key, kind, provider_message_id, raw, apply, ord)
     ), row AS (
       INSERT INTO herald.webhook_events (provider, event_key, kind, provider_message_id, raw, state, applied_at)
       SELECT provider, event_key, kind, provider_message_id, raw,
              CASE WHEN apply THEN 'pending' ELSE 'ignored' END, CASE WHEN apply THEN NULL ELSE now() END
         FROM input ORDER BY ord
       ON CONFLICT (provider, event_key) DO NOTHING
       RETURNING id, provider, event_key, state
     ), job AS (
       SELECT graphile_worker.add_job('apply_webhook_events', json_build_object('ids', json_agg(id::text ORDER BY id)))
         FROM row WHERE state = 'pending' HAVING count(*) > 0
     )
     SELECT provider, event_key, id::text, (SELECT count(*) FROM job) AS jobs FROM row`,
    [
      events.map((e) => e.provider),
      events.map((e) => e.eventKey),
      events.map((e) => e.kind),
      events.map((e) => e.providerMessageId),
      events.map((e) => e.raw),
      events.map((e) => e.apply),
    ],
  );
  // Rows go in in the group's order, so of two deliveries of one event the first is the one kept.
  const inserted = new Map(rows.map((r) => [`${r.provider}\0${r.event_key}`, r.id]));
  return events.map((e) => {
    const key = `${e.provider}\0${e.eventKey}`;
    const id = inserted.get(key) ?? null;
    inserted.delete(key);
    return id;
  });
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
