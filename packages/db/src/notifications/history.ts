import type { Sql } from "../sql.ts";

export interface NotificationEventRecord {
  type: string;
  at: Date;
  detail: Record<string, unknown>;
}

export interface NotificationRecord {
  id: string;
  eventId: string | null;
  userId: string | null;
  type: string;
  channel: string;
  category: string;
  lane: string;
  status: string;
  dispatchState: string;
  reason: string | null;
  attempts: number;
  provider: string | null;
  providerMessageId: string | null;
  address: string | null;
  rendered: unknown;
  nextAttemptAt: Date;
  createdAt: Date;
  sentAt: Date | null;
  deliveredAt: Date | null;
  failedAt: Date | null;
  openedAt: Date | null;
  clickedAt: Date | null;
  readAt: Date | null;
  /** The notification this one resends, if it is a resend. */
  resentFromId: string | null;
  /** Resends of this notification, oldest first. */
  resentAs: string[];
  events: NotificationEventRecord[];
  /** Provider webhooks about this message, as received (the raw body), oldest first. */
  webhooks: WebhookRecord[];
}

/** One provider webhook delivery about a notification, before any parsing. */
export interface WebhookRecord {
  provider: string;
  kind: string;
  state: string;
  receivedAt: Date;
  raw: string;
}

/** Narrows a user's timeline; every field is optional and they combine with AND. */
export interface TimelineFilter {
  channel?: string | null;
  type?: string | null;
  status?: string | null;
  /** Created at or after this instant. */
  from?: Date | null;
  /** Created before this instant. */
  to?: Date | null;
}

const SELECT = `
  SELECT n.id::text, ev.event_id, u.external_id, n.type, n.channel, n.category, n.lane, n.status, n.dispatch_state,
         n.reason, n.attempt_count, n.provider, n.provider_message_id, n.address, n.rendered, n.next_attempt_at,
         n.created_at, (extract(epoch FROM n.created_at) * 1000000)::bigint::text AS created_us, n.sent_at, n.delivered_at, n.failed_at, n.opened_at, n.clicked_at, n.read_at,
         n.resent_from_id::text, array(SELECT r.id::text FROM herald.notifications r WHERE r.resent_from_id = n.id ORDER BY r.id) AS resent_as,
         coalesce((SELECT jsonb_agg(jsonb_build_object('type', e.type, 'at', e.at, 'detail', e.detail) ORDER BY e.id)
                     FROM herald.notification_events e WHERE e.notification_id = n.id), '[]'::jsonb) AS events,
         coalesce((SELECT jsonb_agg(jsonb_build_object('provider', w.provider, 'kind', w.kind, 'state', w.state,
                                                       'receivedAt', w.received_at, 'raw', w.raw) ORDER BY w.id)
                     FROM herald.webhook_events w WHERE w.provider_message_id = n.provider_message_id), '[]'::jsonb) AS webhooks
    FROM herald.notifications n
    LEFT JOIN herald.events ev ON ev.id = n.event_ref
    LEFT JOIN herald.users u ON u.id = n.user_id`;

function toRecord(r: Record<string, any>): NotificationRecord {
  return {
    id: r.id,
    eventId: r.event_id,
    userId: r.external_id,
    type: r.type,
    channel: r.channel,
    category: r.category,
    lane: r.lane,
    status: r.status,
    dispatchState: r.dispatch_state,
    reason: r.reason,
    attempts: r.attempt_count,
    provider: r.provider,
    providerMessageId: r.provider_message_id,
    address: r.address,
    rendered: r.rendered,
    nextAttemptAt: r.next_attempt_at,
    createdAt: r.created_at,
    sentAt: r.sent_at,
    deliveredAt: r.delivered_at,
    failedAt: r.failed_at,
    openedAt: r.opened_at,
    clickedAt: r.clicked_at,
    readAt: r.read_at,
    resentFromId: r.resent_from_id,
    resentAs: r.resent_as,
    events: (r.events as Array<{ type: string; at: string; detail: Record<string, unknown> }>).map((e) => ({
      type: e.type,
      at: new Date(e.at),
      detail: e.detail,
    })),
    webhooks: (r.webhooks as Array<Omit<WebhookRecord, "receivedAt"> & { receivedAt: string }>).map((w) => ({ ...w, receivedAt: new Date(w.receivedAt) })),
  };
}

export async function findNotification(sql: Sql, id: string): Promise<NotificationRecord | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const { rows } = await sql.query(`${SELECT} WHERE n.id = $1`, [id]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/**
 * One user's notifications, newest first, keyset-paged on (created_at, id) — the order of the
 * (user_id, created_at desc, id desc) index — each with its event log. Filters only drop rows
 * from that walk, so a page never needs another index.
 */
export async function listUserNotifications(
  sql: Sql,
  externalUserId: string,
  page: { limit: number; cursor?: string | null },
  filter: TimelineFilter = {},
): Promise<{ items: NotificationRecord[]; nextCursor: string | null }> {
  const params: unknown[] = [externalUserId];
  const conditions: string[] = [];
  // Each condition is fixed SQL text with its own placeholder; only the values are bound.
  const bind = (value: unknown) => `$${params.push(value)}`;
  const cursor = page.cursor ? decodeCursor(page.cursor) : null;
  if (cursor) {
    // Microseconds, not a JS Date: created_at is finer than a millisecond.
    conditions.push(`(n.created_at, n.id) < (timestamptz 'epoch' + ${bind(cursor.createdUs)}::bigint * interval '1 microsecond', ${bind(cursor.id)}::bigint)`);
  }
  if (filter.channel) conditions.push(`n.channel = ${bind(filter.channel)}`);
  if (filter.type) conditions.push(`n.type = ${bind(filter.type)}`);
  if (filter.status) conditions.push(`n.status = ${bind(filter.status)}`);
  if (filter.from) conditions.push(`n.created_at >= ${bind(filter.from)}`);
  if (filter.to) conditions.push(`n.created_at < ${bind(filter.to)}`);
  const limit = bind(page.limit + 1);
  const { rows } = await sql.query(
    `${SELECT}
      WHERE n.user_id = (SELECT id FROM herald.users WHERE external_id = $1) ${conditions.map((c) => `AND ${c}`).join(" ")}
      ORDER BY n.created_at DESC, n.id DESC
      LIMIT ${limit}`,
    params,
  );
  const items = rows.slice(0, page.limit).map(toRecord);
  const last = rows[page.limit - 1];
  return {
    items,
    nextCursor: rows.length > page.limit && last ? Buffer.from(`${last.created_us}|${last.id}`).toString("base64url") : null,
  };
}

function decodeCursor(cursor: string): { createdUs: string; id: string } | null {
  const [createdUs, id] = Buffer.from(cursor, "base64url").toString().split("|");
  return createdUs && id && /^\d{1,19}$/.test(createdUs) && /^\d{1,18}$/.test(id) ? { createdUs, id } : null;
}
