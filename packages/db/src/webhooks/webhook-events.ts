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
