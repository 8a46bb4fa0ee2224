import type { Sql } from "../sql.ts";

/** One entry of a recipient's in-app inbox: what was sent to them, as it was rendered. */
export interface InboxItem {
  id: string;
  type: string;
  channel: string;
  category: string;
  status: string;
  title: string | null;
  body: string | null;
  createdAt: Date;
  readAt: Date | null;
}

export interface InboxPage {
  items: InboxItem[];
  nextCursor: string | null;
  unreadCount: number;
}

// The inbox holds what a provider accepted and did not report lost: pending rows have not been
// sent, and failed, bounced, skipped, dead and canceled ones never reached the user.
const IN_INBOX = `n.status IN ('sent', 'delivered')`;
const USER = `n.user_id = (SELECT u.id FROM herald.users u WHERE u.external_id = $1)`;

/**
 * A user's inbox, newest first, keyset-paged on (created_at, id) like the notification history
 * (the user timeline index serves both), with the count of unread entries.
 */
export async function listInbox(
  sql: Sql,
  externalUserId: string,
  page: { limit: number; cursor?: string | null; channel?: string | null },
): Promise<InboxPage> {
  const params: unknown[] = [externalUserId, page.channel ?? null];
  const channel = `($2::text IS NULL OR n.channel = $2)`;
  let keyset = "";
  const cursor = page.cursor ? decodeInboxCursor(page.cursor) : null;
  if (cursor) {
    params.push(cursor.createdUs, cursor.id);
    keyset = `AND (n.created_at, n.id) < (timestamptz 'epoch' + $3::bigint * interval '1 microsecond', $4::bigint)`;
  }
  params.push(page.limit + 1);
  const { rows } = await sql.query(
    `SELECT n.id::text, n.type, n.channel, n.category, n.status, n.created_at, n.read_at,
            (extract(epoch FROM n.created_at) * 1000000)::bigint::text AS created_us,
            coalesce(n.rendered ->> 'title', n.rendered ->> 'subject') AS title, n.rendered ->> 'body' AS body
       FROM herald.notifications n
      WHERE ${USER} AND ${IN_INBOX} AND ${channel} ${keyset}
      ORDER BY n.created_at DESC, n.id DESC
      LIMIT $${params.length}`,
    params,
  );
  const { rows: counted } = await sql.query<{ unread: number }>(
    `SELECT count(*)::int AS unread FROM herald.notifications n WHERE ${USER} AND ${IN_INBOX} AND ${channel} AND n.read_at IS NULL`,
    [externalUserId, page.channel ?? null],
  );
  const last = rows[page.limit - 1];
  return {
    items: rows.slice(0, page.limit).map((r) => ({
      id: r.id,
      type: r.type,
      channel: r.channel,
      category: r.category,
      status: r.status,
      title: r.title,
      body: r.body,
      createdAt: r.created_at,
      readAt: r.read_at,
    })),
    nextCursor: rows.length > page.limit && last ? Buffer.from(`${last.created_us}|${last.id}`).toString("base64url") : null,
    unreadCount: counted[0]?.unread ?? 0,
  };
}

/** Marks every unread inbox entry of the user read (read_at is set once, and logged); returns how many. */
export async function markInboxRead(sql: Sql, externalUserId: string, channel: string | null = null): Promise<number> {
  const { rows } = await sql.query<{ updated: number }>(
    `WITH upd AS (
       UPDATE herald.notifications n SET read_at = now(), updated_at = now()
        WHERE ${USER} AND ${IN_INBOX} AND ($2::text IS NULL OR n.channel = $2) AND n.read_at IS NULL
       RETURNING n.id
     ), logged AS (
       INSERT INTO herald.notification_events (notification_id, type, detail)
       SELECT id, 'read', jsonb_build_object('source', 'client', 'readAll', true) FROM upd
     )
     SELECT count(*)::int AS updated FROM upd`,
    [externalUserId, channel],
  );
  return rows[0]?.updated ?? 0;
}

function decodeInboxCursor(cursor: string): { createdUs: string; id: string } | null {
  const [createdUs, id] = Buffer.from(cursor, "base64url").toString().split("|");
  return createdUs && id && /^\d{1,19}$/.test(createdUs) && /^\d{1,18}$/.test(id) ? { createdUs, id } : null;
}
