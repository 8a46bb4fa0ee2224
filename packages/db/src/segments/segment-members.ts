import type pg from "pg";
import type { Sql } from "../sql.ts";
import { withTransaction } from "../sql.ts";
import type { SegmentQuery } from "./compile-segment.ts";

/** One member as the segment preview lists it. */
export interface SegmentMember {
  id: string;
  externalId: string;
  email: string | null;
  phone: string | null;
  locale: string | null;
  timezone: string | null;
}

const QUERY_CANCELED = "57014";

/**
 * How many users the query selects, or null when counting took longer than `timeoutMs`: a rule
 * someone is still typing must not hold a connection for minutes.
 */
export async function countSegment(pool: pg.Pool, query: SegmentQuery, timeoutMs = 10_000): Promise<number | null> {
  try {
    return await withTransaction(pool, async (client) => {
      await client.query("SELECT set_config('statement_timeout', $1, true)", [String(timeoutMs)]);
      const { rows } = await client.query<{ count: string }>(`SELECT count(*) AS count FROM (${query.sql}) members`, query.params);
      return Number(rows[0]!.count);
    });
  } catch (error) {
    if ((error as { code?: string }).code === QUERY_CANCELED) return null;
    throw error;
  }
}

/**
 * Up to `limit` members with the lowest ids. The predicate is applied to the users' primary-key
 * order, so the scan stops at the `limit`-th match instead of evaluating everyone.
 */
export async function sampleSegment(sql: Sql, query: SegmentQuery, limit = 20): Promise<SegmentMember[]> {
  const { rows } = await sql.query(
    `SELECT u.id::text, u.external_id, u.email, u.phone, u.locale, u.timezone
       FROM herald.users u
      WHERE u.id IN (${query.sql})
      ORDER BY u.id
      LIMIT $${query.params.length + 1}`,
    [...query.params, limit],
  );
  return rows.map((r) => ({ id: r.id, externalId: r.external_id, email: r.email, phone: r.phone, locale: r.locale, timezone: r.timezone }));
}
