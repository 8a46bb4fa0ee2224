import type { Sql } from "../sql.ts";

/** One event as the API accepts it, already validated. */
export interface EventInput {
  eventId: string;
  type: string;
  userId: string;
  occurredAt?: string | undefined;
  data?: Record<string, unknown> | undefined;
}

export type IngestOutcome = "created" | "replay" | "conflict" | "unknown_type";

export interface IngestResult {
  eventId: string;
  outcome: IngestOutcome;
  notifications: Array<{ id: string; channel: string; status: string }>;
}

/**
 * Routing, dedup and pinning through herald.ingest_events — the same SQL function herald.emit
 * calls — so REST and the transactional outbox can never disagree. Results come back in input
 * order, one per event.
 */
export async function ingestEvents(sql: Sql, events: readonly EventInput[]): Promise<IngestResult[]> {
  const { rows } = await sql.query<{
    ord: number;
    event_id: string;
    outcome: IngestOutcome;
    notification_id: string | null;
    channel: string | null;
    status: string | null;
  }>({ name: "herald_ingest_events", text: "SELECT * FROM herald.ingest_events($1::jsonb)", values: [JSON.stringify(events)] });
  const results: IngestResult[] = events.map((e) => ({ eventId: e.eventId, outcome: "unknown_type", notifications: [] }));
  for (const row of rows) {
    const result = results[row.ord - 1]!;
    result.outcome = row.outcome;
    if (row.notification_id) result.notifications.push({ id: row.notification_id, channel: row.channel!, status: row.status! });
  }
  return results;
}

/** Rows waiting for the pump: the outbox backlog that ingest answers 429 above. Bounded count. */
export async function countOutboxBacklog(sql: Sql, bound: number): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT 1 FROM herald.notifications
        WHERE job_queued_at IS NULL AND dispatch_state = 'queued' AND next_attempt_at <= now()
        LIMIT $1) x`,
    [bound + 1],
  );
  return rows[0]!.n;
}
