import type { Sql } from "../sql.ts";

/** A broadcast's counters in the list: its notification rows by where they stand. */
export interface BroadcastCounters {
  targeted: number;
  pending: number;
  /** Handed to a provider: sent or any later status (core's `funnelOf` counts alike). */
  sent: number;
  failed: number;
  skipped: number;
}

/**
 * The counters of many broadcasts in one grouped scan of the notifications_broadcast_idx partial
 * index (broadcast_id, channel, status): the list asks for its page's rows only, so a page costs
 * one query however many broadcasts it shows. Broadcasts without rows are absent from the map.
 */
export async function broadcastCounters(sql: Sql, ids: readonly string[]): Promise<Map<string, BroadcastCounters>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql.query(
    `SELECT broadcast_id::text AS id, count(*)::int AS targeted,
            count(*) FILTER (WHERE status = 'pending')::int AS pending,
            count(*) FILTER (WHERE status IN ('sent', 'delivered', 'failed', 'bounced'))::int AS sent,
            count(*) FILTER (WHERE status IN ('failed', 'bounced', 'dead'))::int AS failed,
            count(*) FILTER (WHERE status = 'skipped')::int AS skipped
       FROM herald.notifications
      WHERE broadcast_id = ANY ($1::bigint[])
      GROUP BY broadcast_id`,
    [ids],
  );
  return new Map(rows.map(({ id, ...counters }) => [id, counters as BroadcastCounters]));
}

/** One slice of a running broadcast's rows for its live counters: per channel, status and reason, no per-variant split. */
export interface BroadcastLiveRow {
  channel: "push" | "email" | "sms";
  version: null;
  status: string;
  reason: string | null;
  count: number;
  delivered: number;
  opened: number;
  clicked: number;
}

/**
 * The live counters' rows, polled every few seconds while a broadcast sends: grouped without the
 * template version, because the per-variant funnel and its z-tests are the report's, read once.
 */
export async function broadcastLiveRows(sql: Sql, id: string): Promise<BroadcastLiveRow[]> {
  const { rows } = await sql.query(
    `SELECT channel, NULL::int AS version, status, reason, count(*)::int AS count,
            count(delivered_at)::int AS delivered, count(opened_at)::int AS opened, count(clicked_at)::int AS clicked
       FROM herald.notifications WHERE broadcast_id = $1
      GROUP BY channel, status, reason
      ORDER BY channel, status, reason`,
    [id],
  );
  return rows;
}
