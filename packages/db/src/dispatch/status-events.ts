import type { Sql } from "../sql.ts";

/** A status report from a provider's webhook (or the sandbox's simulation of one). */
export interface StatusEvent {
  providerMessageId: string;
  kind: "delivered" | "failed" | "bounced" | "complaint" | "auto_reply" | "delivery_delayed" | "opened" | "clicked" | "read";
  at: Date;
  detail?: Record<string, unknown>;
  /** Suppress the notification's address for this reason (hard bounce, complaint, STOP). */
  suppress?: "hard_bounce" | "complaint" | "stop";
  source?: string;
  /**
   * `at` is when the provider says it happened (SES's timestamps), not when Herald heard of it
   * (Twilio's callbacks carry no time): only such a report may replace an outcome of the same rank.
   */
  providerTime?: boolean;
}

const STATUS_OF_KIND: Record<StatusEvent["kind"], string | null> = {
  delivered: "delivered",
  failed: "failed",
  bounced: "bounced",
  complaint: null,
  auto_reply: null,
  delivery_delayed: null,
  opened: null,
  clicked: null,
  read: null,
};

/**
 * Applies provider status events, in any order, any number of times: status only moves forward
 * by rank, first-time timestamps are never overwritten, and side effects (suppressions, the
 * event log) apply even when the status does not move. Among delivered, failed and bounced (one
 * rank) the report of what happened last by the provider's time wins, the worse news at the same
 * instant, so the outcome is the same whatever order the webhooks arrive in: an email SES
 * delivered and the receiving server bounced afterwards ends bounced, even when the bounce
 * arrives first. A report without the provider's time never replaces an outcome (the first to
 * arrive stays). Events for one message are applied in the order given. Returns the provider
 * message ids nothing matched (orphans).
 */
export async function applyStatusEvents(sql: Sql, events: readonly StatusEvent[]): Promise<string[]> {
  const rounds: StatusEvent[][] = [];
  const seen = new Map<string, number>();
  for (const event of events) {
    const round = seen.get(event.providerMessageId) ?? 0;
    seen.set(event.providerMessageId, round + 1);
    (rounds[round] ??= []).push(event);
  }
  const matched = new Set<string>();
  for (const round of rounds) {
    const rows = round.map((e) => ({
      provider_message_id: e.providerMessageId,
      kind: e.kind,
      status: STATUS_OF_KIND[e.kind],
      at: e.at.toISOString(),
      detail: e.detail ?? {},
      suppress: e.suppress ?? null,
      source: e.source ?? "webhook",
      provider_time: e.providerTime ?? false,
    }));
    const { rows: applied } = await sql.query<{ provider_message_id: string }>(
      { name: "herald_apply_status_events", text: `WITH e AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(provider_message_id text, kind text, status text, at timestamptz,
                                                           detail jsonb, suppress text, source text,
                                                           provider_time boolean)
       ), upd AS (
         UPDATE herald.notifications n SET
           status = CASE WHEN e.status IS NULL THEN n.status
                         WHEN herald.status_rank(e.status) > herald.status_rank(n.status) THEN e.status
                         -- The row's time for its outcome against the report's (a null time keeps the row's).
                         WHEN e.provider_time AND n.status IN ('delivered', 'failed', 'bounced') AND e.status <> n.status
                          AND (e.at, array_position('{delivered,failed,bounced}'::text[], e.status))
                            > (CASE n.status WHEN 'delivered' THEN n.delivered_at ELSE n.failed_at END,
                               array_position('{delivered,failed,bounced}'::text[], n.status))
                         THEN e.status
                         ELSE n.status END,
           delivered_at = CASE WHEN e.kind = 'delivered' THEN coalesce(n.delivered_at, e.at) ELSE n.delivered_at END,
           failed_at = CASE WHEN e.kind IN ('failed', 'bounced') THEN coalesce(n.failed_at, e.at) ELSE n.failed_at END,
           opened_at = CASE WHEN e.kind = 'opened' THEN coalesce(n.opened_at, e.at) ELSE n.opened_at END,
           clicked_at = CASE WHEN e.kind = 'clicked' THEN coalesce(n.clicked_at, e.at) ELSE n.clicked_at END,
           read_at = CASE WHEN e.kind = 'read' THEN coalesce(n.read_at, e.at) ELSE n.read_at END,
           updated_at = now()
           FROM e
          WHERE n.provider_message_id = e.provider_message_id
         RETURNING n.id, n.channel, n.address, e.provider_message_id, e.kind, e.at, e.detail, e.suppress, e.source
       ), suppressed AS (
         INSERT INTO herald.suppressions (channel, address, reason, source, detail)
         SELECT u.channel, u.address, u.suppress, u.source, jsonb_build_object('notificationId', u.id::text)
           FROM upd u WHERE u.suppress IS NOT NULL AND u.address IS NOT NULL
         ON CONFLICT (channel, address) DO NOTHING
       ), logged AS (
         INSERT INTO herald.notification_events (notification_id, type, at, detail)
         SELECT u.id, u.kind, u.at, u.detail FROM upd u
       )
       SELECT provider_message_id FROM upd`, values: [JSON.stringify(rows)] },
    );
    for (const row of applied) matched.add(row.provider_message_id);
  }
  return [...new Set(events.map((e) => e.providerMessageId))].filter((id) => !matched.has(id));
}
