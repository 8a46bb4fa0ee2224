import type { Sql } from "../sql.ts";

export interface DeadLetterFilter {
  channel?: string | null;
  /** Exact reason code, or a prefix ending in ":" (e.g. "provider_rejected:"). */
  reason?: string | null;
  /** Only dead letters at least this old / at most this old (milliseconds). */
  olderThanMs?: number | null;
  newerThanMs?: number | null;
}

export interface DeadLetter {
  id: string;
  userId: string | null;
  type: string;
  channel: string;
  category: string;
  reason: string | null;
  lastError: string | null;
  attempts: number;
  provider: string | null;
  vars: unknown;
  content: unknown;
  createdAt: Date;
  deadAt: Date;
}

function filterSql(filter: DeadLetterFilter, params: unknown[]): string {
  const where = ["n.status = 'dead'"];
  if (filter.channel) {
    params.push(filter.channel);
    where.push(`n.channel = $${params.length}`);
  }
  if (filter.reason) {
    params.push(filter.reason.endsWith(":") ? `${filter.reason}%` : filter.reason);
    where.push(filter.reason.endsWith(":") ? `n.reason LIKE $${params.length}` : `n.reason = $${params.length}`);
  }
  if (filter.olderThanMs != null) {
    params.push(filter.olderThanMs);
    where.push(`n.updated_at <= now() - make_interval(secs => $${params.length}::float8 / 1000)`);
  }
  if (filter.newerThanMs != null) {
    params.push(filter.newerThanMs);
    where.push(`n.updated_at >= now() - make_interval(secs => $${params.length}::float8 / 1000)`);
  }
  return where.join(" AND ");
}

/** Dead letters, newest first, keyset-paged; the payload, last error and attempts kept. */
export async function listDeadLetters(
  sql: Sql,
  filter: DeadLetterFilter,
  page: { limit: number; cursor?: string | null },
): Promise<{ items: DeadLetter[]; nextCursor: string | null }> {
  const params: unknown[] = [];
  let where = filterSql(filter, params);
  const [cursorUs, cursorId] = page.cursor ? Buffer.from(page.cursor, "base64url").toString().split("|") : [];
  if (cursorUs && cursorId && /^\d{1,19}$/.test(cursorUs) && /^\d{1,18}$/.test(cursorId)) {
    params.push(cursorUs, cursorId);
    where += ` AND (n.updated_at, n.id) < (timestamptz 'epoch' + $${params.length - 1}::bigint * interval '1 microsecond', $${params.length}::bigint)`;
  }
  params.push(page.limit + 1);
  const { rows } = await sql.query(
    `SELECT n.id::text, u.external_id, n.type, n.channel, n.category, n.reason, n.last_error, n.attempt_count, n.provider,
            n.vars, n.content, n.created_at, n.updated_at, (extract(epoch FROM n.updated_at) * 1000000)::bigint::text AS updated_us
       FROM herald.notifications n LEFT JOIN herald.users u ON u.id = n.user_id
      WHERE ${where}
      ORDER BY n.updated_at DESC, n.id DESC
      LIMIT $${params.length}`,
    params,
  );
  const items = rows.slice(0, page.limit).map((r) => ({
    id: r.id,
    userId: r.external_id,
    type: r.type,
    channel: r.channel,
    category: r.category,
    reason: r.reason,
    lastError: r.last_error,
    attempts: r.attempt_count,
    provider: r.provider,
    vars: r.vars,
    content: r.content,
    createdAt: r.created_at,
    deadAt: r.updated_at,
  }));
  const last = rows[page.limit - 1];
  const nextCursor = rows.length > page.limit && last ? Buffer.from(`${last.updated_us}|${last.id}`).toString("base64url") : null;
  return { items, nextCursor };
}

/**
 * The one audited exception to forward-only status: dead rows go back to pending with fresh
 * attempts and a "replayed" event. Either the given ids, or every dead letter matching a filter.
 */
export async function replayDeadLetters(sql: Sql, target: { ids: readonly string[] } | { filter: DeadLetterFilter }, actor: string): Promise<string[]> {
  const params: unknown[] = [actor];
  const where =
    "ids" in target ? (params.push(target.ids), `n.status = 'dead' AND n.id = ANY ($2::bigint[])`) : filterSql(target.filter, params);
  const { rows } = await sql.query<{ id: string }>(
    `WITH replayed AS (
       UPDATE herald.notifications n SET
         status = 'pending', reason = NULL, dispatch_state = 'queued', attempt_count = 0, first_attempt_at = NULL,
         deferred_ms = 0, deferred_since = NULL, outage_since = NULL, next_attempt_at = now(), job_queued_at = NULL,
         in_flight_job = NULL, updated_at = now()
        WHERE ${where}
       RETURNING n.id
     ), logged AS (
       INSERT INTO herald.notification_events (notification_id, type, detail)
       SELECT r.id, 'replayed', jsonb_build_object('by', $1::text) FROM replayed r
     )
     SELECT id::text FROM replayed`,
    params,
  );
  return rows.map((r) => r.id);
}
