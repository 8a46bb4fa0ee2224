import type { Sql } from "../sql.ts";

export interface OrphanWebhookRow {
  id: string;
  provider: string;
  kind: string;
  providerMessageId: string | null;
  receivedAt: Date;
  raw: string;
}

export interface OrphanWebhookPage {
  items: OrphanWebhookRow[];
  /** Pass back to get the next (older) page; null on the last one. */
  nextCursor: string | null;
}

// Postgres' own text for received_at (microseconds kept: a JavaScript Date would round them off
// and skip rows), then the id.
const CURSOR = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?[+-]\d\d(?::\d\d)?)_(\d{1,18})$/;

/**
 * Webhooks that matched no notification (a message sent by another system through the same
 * account, or one Herald already pruned), newest first, one keyset page at a time along
 * webhook_events_orphans_idx. A malformed cursor starts from the top.
 */
export async function listOrphanWebhookPage(sql: Sql, options: { limit: number; cursor: string | null }): Promise<OrphanWebhookPage> {
  const cursor = options.cursor ? CURSOR.exec(options.cursor) : null;
  const { rows } = await sql.query(
    { name: "herald_operations_orphan_webhooks", text: `SELECT id::text, provider, kind, provider_message_id, received_at, received_at::text AS position, raw
       FROM herald.webhook_events
      WHERE state = 'orphan' AND ($1::timestamptz IS NULL OR (received_at, id) < ($1::timestamptz, $2::bigint))
      ORDER BY received_at DESC, id DESC
      LIMIT $3`, values: [cursor?.[1] ?? null, cursor?.[2] ?? null, options.limit + 1] },
  );
  const page = rows.slice(0, options.limit);
  const items = page.map((r) => ({
    id: r.id,
    provider: r.provider,
    kind: r.kind,
    providerMessageId: r.provider_message_id,
    receivedAt: r.received_at,
    raw: r.raw,
  }));
  const last = page[page.length - 1];
  return { items, nextCursor: rows.length > options.limit && last ? `${last.position}_${last.id}` : null };
}
