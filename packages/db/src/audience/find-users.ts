import type { Sql } from "../sql.ts";

/** One user a support search found, and which of their identifiers matched. */
export interface FoundUser {
  externalId: string;
  email: string | null;
  phone: string | null;
  matchedOn: "id" | "email" | "phone";
}

/** `LIKE` treats these as wildcards; a typed "%" or "_" must match itself. */
function prefixPattern(text: string): string {
  return `${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/**
 * Users whose id, email (any case) or phone starts with `query`, exact matches first. Each branch
 * walks its own text_pattern_ops index in that index's order (`USING ~<~`, the operator class's
 * own ordering) and stops at `limit`: ordered by the collation's `<` instead, Postgres must fetch
 * and sort every match, 6 s for a one-letter prefix on a million users (EXPLAIN in docs/support.md).
 */
export async function findUsers(sql: Sql, query: string, limit: number): Promise<FoundUser[]> {
  // Phone numbers are typed with spaces, dashes and brackets; nothing left of them searches no phone.
  const phone = query.replace(/[\s().-]/g, "");
  const { rows } = await sql.query<{ external_id: string; email: string | null; phone: string | null; matched_on: FoundUser["matchedOn"] }>(
    `WITH hits AS (
       (SELECT id, 'id' AS matched_on, 0 AS rank FROM herald.users
         WHERE external_id LIKE $1 ORDER BY external_id USING ~<~ LIMIT $4)
       UNION ALL
       (SELECT id, 'email', 1 FROM herald.users
         WHERE lower(email) LIKE $2 AND email IS NOT NULL ORDER BY lower(email) USING ~<~ LIMIT $4)
       UNION ALL
       (SELECT id, 'phone', 2 FROM herald.users
         WHERE $3::text IS NOT NULL AND phone LIKE $3 AND phone IS NOT NULL ORDER BY phone USING ~<~ LIMIT $4)
     ), best AS (
       SELECT DISTINCT ON (h.id) h.id, h.matched_on, h.rank FROM hits h ORDER BY h.id, h.rank
     )
     SELECT u.external_id, u.email, u.phone, b.matched_on
       FROM best b JOIN herald.users u ON u.id = b.id
      ORDER BY (u.external_id = $5 OR lower(u.email) = lower($5) OR u.phone = $5) DESC, b.rank,
               CASE b.matched_on WHEN 'id' THEN u.external_id WHEN 'email' THEN lower(u.email) ELSE u.phone END
      LIMIT $4`,
    [prefixPattern(query), prefixPattern(query.toLowerCase()), phone === "" ? null : prefixPattern(phone), limit, query],
  );
  return rows.map((r) => ({ externalId: r.external_id, email: r.email, phone: r.phone, matchedOn: r.matched_on }));
}
