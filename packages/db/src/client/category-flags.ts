import type { Sql } from "../sql.ts";

/** What the email render needs of a category: whether it may be unsubscribed from, and what it tracks. */
export interface CategoryFlags {
  mandatory: boolean;
  tracking: { opens: boolean; clicks: boolean };
}

/** Flags of the named categories (aliases resolve to their category); unknown keys are absent. */
export async function findCategoryFlags(sql: Sql, keys: readonly string[]): Promise<Map<string, CategoryFlags>> {
  if (keys.length === 0) return new Map();
  const { rows } = await sql.query<{ wanted: string; mandatory: boolean; opens: boolean; clicks: boolean }>(
    `SELECT w.key AS wanted, c.mandatory,
            coalesce((c.tracking ->> 'opens')::boolean, false) AS opens,
            coalesce((c.tracking ->> 'clicks')::boolean, false) AS clicks
       FROM unnest($1::text[]) AS w(key)
       LEFT JOIN herald.category_aliases a ON a.alias = w.key
       JOIN herald.categories c ON c.key = coalesce(a.category_key, w.key)`,
    [[...new Set(keys)]],
  );
  return new Map(rows.map((r) => [r.wanted, { mandatory: r.mandatory, tracking: { opens: r.opens, clicks: r.clicks } }]));
}
