import type pg from "pg";
import { withTransaction, type Sql } from "../sql.ts";

export interface CategoryRecord {
  key: string;
  label: string;
  mandatory: boolean;
  defaults: { push: boolean; email: boolean; sms: boolean };
  aliases: string[];
  tracking: { opens: boolean; clicks: boolean };
  frequencyCap: { max: number; windowSeconds: number; action: "defer" | "skip" } | null;
  updatedAt: Date;
}

export interface CategoryInput {
  label: string;
  mandatory?: boolean | undefined;
  defaults?: { push?: boolean | undefined; email?: boolean | undefined; sms?: boolean | undefined } | undefined;
  aliases?: string[] | undefined;
  tracking?: { opens?: boolean | undefined; clicks?: boolean | undefined } | undefined;
  frequencyCap?: { max: number; windowSeconds: number; action: "defer" | "skip" } | null | undefined;
}

const SELECT = `
  SELECT c.key, c.label, c.mandatory, c.defaults, c.tracking, c.frequency_cap, c.updated_at,
         coalesce(array_agg(a.alias ORDER BY a.alias) FILTER (WHERE a.alias IS NOT NULL), '{}') AS aliases
    FROM herald.categories c LEFT JOIN herald.category_aliases a ON a.category_key = c.key`;

function toCategory(r: Record<string, any>): CategoryRecord {
  return {
    key: r.key,
    label: r.label,
    mandatory: r.mandatory,
    defaults: { push: r.defaults.push ?? true, email: r.defaults.email ?? true, sms: r.defaults.sms ?? true },
    aliases: r.aliases,
    tracking: { opens: r.tracking.opens ?? false, clicks: r.tracking.clicks ?? false },
    frequencyCap: r.frequency_cap,
    updatedAt: r.updated_at,
  };
}

export async function findCategory(sql: Sql, key: string): Promise<CategoryRecord | null> {
  const { rows } = await sql.query(`${SELECT} WHERE c.key = $1 GROUP BY c.key`, [key]);
  return rows[0] ? toCategory(rows[0]) : null;
}

export async function listCategories(sql: Sql): Promise<CategoryRecord[]> {
  const { rows } = await sql.query(`${SELECT} GROUP BY c.key ORDER BY c.key`);
  return rows.map(toCategory);
}

export type UpsertCategoryResult = { kind: "ok"; category: CategoryRecord; created: boolean } | { kind: "alias_taken"; alias: string; owner: string };

/** Creates or replaces a category and its aliases; a name (key or alias) another category owns is refused. */
export async function upsertCategory(sql: Sql, key: string, input: CategoryInput): Promise<UpsertCategoryResult> {
  const aliases = [...new Set(input.aliases ?? [])];
  const { rows: taken } = await sql.query<{ alias: string; owner: string }>(
    `SELECT alias, category_key AS owner FROM herald.category_aliases WHERE alias = ANY ($1) AND category_key <> $2
     UNION ALL SELECT key, key FROM herald.categories WHERE key = ANY ($1) AND key <> $2
     UNION ALL SELECT alias, category_key FROM herald.category_aliases WHERE alias = $2 AND category_key <> $2 LIMIT 1`,
    [aliases, key],
  );
  if (taken[0]) return { kind: "alias_taken", alias: taken[0].alias, owner: taken[0].owner };
  const defaults = { push: input.defaults?.push ?? true, email: input.defaults?.email ?? true, sms: input.defaults?.sms ?? true };
  const tracking = { opens: input.tracking?.opens ?? false, clicks: input.tracking?.clicks ?? false };
  const { rows } = await sql.query<{ created: boolean }>(
    `WITH upserted AS (
       INSERT INTO herald.categories AS c (key, label, mandatory, defaults, tracking, frequency_cap)
       VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb)
       ON CONFLICT (key) DO UPDATE SET label = EXCLUDED.label, mandatory = EXCLUDED.mandatory, defaults = EXCLUDED.defaults,
         tracking = EXCLUDED.tracking, frequency_cap = EXCLUDED.frequency_cap, updated_at = now()
       RETURNING (xmax = 0) AS created
     ), dropped AS (
       DELETE FROM herald.category_aliases WHERE category_key = $1 AND NOT (alias = ANY ($7))
     ), added AS (
       INSERT INTO herald.category_aliases (alias, category_key) SELECT unnest($7::text[]), $1
       ON CONFLICT (alias) DO NOTHING
     )
     SELECT created FROM upserted`,
    [key, input.label, input.mandatory ?? false, JSON.stringify(defaults), JSON.stringify(tracking),
     input.frequencyCap ? JSON.stringify(input.frequencyCap) : null, aliases],
  );
  return { kind: "ok", category: (await findCategory(sql, key))!, created: rows[0]!.created };
}

/** What still names a category: a deletion would break or silently change each of these. */
export interface CategoryUsage {
  /** Notification types with a step naming the category or one of its aliases. */
  notificationTypes: string[];
  /** Broadcasts of the category, sent or not (their reports keep it). */
  broadcasts: number;
  /** Whether users chose a preference for it: deleting would drop their opt-outs with it. */
  hasPreferences: boolean;
}

export type DeleteCategoryResult = { kind: "deleted" } | { kind: "not_found" } | { kind: "in_use"; usage: CategoryUsage };

/**
 * Deletes an unused category and its aliases. The row is locked first, so a delete and an upsert
 * of the same key cannot interleave; a used category is left as it is and its usage reported.
 */
export async function deleteCategory(pool: pg.Pool, key: string): Promise<DeleteCategoryResult> {
  return withTransaction(pool, async (tx) => {
    const { rows: locked } = await tx.query("SELECT key FROM herald.categories WHERE key = $1 FOR UPDATE", [key]);
    if (locked.length === 0) return { kind: "not_found" };
    const { rows } = await tx.query<{ types: string[]; broadcasts: number; has_preferences: boolean }>(
      `WITH names AS (
         SELECT $1::text AS name UNION ALL SELECT alias FROM herald.category_aliases WHERE category_key = $1
       )
       SELECT
         (SELECT coalesce(array_agg(t.type ORDER BY t.type), '{}') FROM herald.notification_types t
           WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(t.channels) s WHERE s->>'category' IN (SELECT name FROM names))) AS types,
         (SELECT count(*) FROM herald.broadcasts b WHERE b.category = $1)::int AS broadcasts,
         EXISTS (SELECT 1 FROM herald.preferences p WHERE p.category = $1) AS has_preferences`,
      [key],
    );
    const usage = { notificationTypes: rows[0]!.types, broadcasts: rows[0]!.broadcasts, hasPreferences: rows[0]!.has_preferences };
    if (usage.notificationTypes.length > 0 || usage.broadcasts > 0 || usage.hasPreferences) return { kind: "in_use", usage };
    await tx.query("DELETE FROM herald.categories WHERE key = $1", [key]);
    return { kind: "deleted" };
  });
}
