import type { Sql } from "../sql.ts";

/** How many rows a chunk added, and how many it found already there. */
export interface AppliedCounts {
  created: number;
  updated: number;
}

/** One user row of an import; null fields were empty in the file and keep their stored value. */
export interface UserImportRow {
  externalId: string;
  email: string | null;
  phone: string | null;
  timezone: string | null;
  locale: string | null;
  attributes: Record<string, unknown>;
}

// `xmax = 0` holds for a row this statement inserted, not one it updated: created vs merged.
const COUNT_WRITTEN = `SELECT count(*) FILTER (WHERE created)::int AS created, count(*) FILTER (WHERE NOT created)::int AS updated FROM written`;

/**
 * Upserts a chunk of users in one statement: new users are created, existing ones get the
 * non-empty fields and their attributes merged (an import never deletes). Ids must be unique
 * within the chunk (the import marks repeated ids before it applies anything).
 */
export async function upsertImportedUsers(sql: Sql, users: readonly UserImportRow[]): Promise<AppliedCounts> {
  if (users.length === 0) return { created: 0, updated: 0 };
  const { rows } = await sql.query<AppliedCounts>(
    `WITH written AS (
       INSERT INTO herald.users AS u (external_id, email, phone, timezone, locale, attributes)
       SELECT r."externalId", r.email, r.phone, r.timezone, r.locale, r.attributes
         FROM jsonb_to_recordset($1::jsonb)
              AS r("externalId" text, email text, phone text, timezone text, locale text, attributes jsonb)
       ON CONFLICT (external_id) DO UPDATE SET
         email = coalesce(EXCLUDED.email, u.email),
         phone = coalesce(EXCLUDED.phone, u.phone),
         timezone = coalesce(EXCLUDED.timezone, u.timezone),
         locale = coalesce(EXCLUDED.locale, u.locale),
         attributes = u.attributes || EXCLUDED.attributes,
         updated_at = now()
       RETURNING (xmax = 0) AS created
     ) ${COUNT_WRITTEN}`,
    [JSON.stringify(users)],
  );
  return rows[0]!;
}

/**
 * Suppresses a chunk of addresses (reason `import`). An address already suppressed keeps its
 * first reason: a hard bounce stays a hard bounce, and so does an erased user's suppression kept
 * as a hash. `updated` counts those.
 */
export async function suppressImportedAddresses(
  sql: Sql,
  importId: string,
  addresses: ReadonlyArray<{ channel: "email" | "sms"; address: string }>,
): Promise<AppliedCounts> {
  if (addresses.length === 0) return { created: 0, updated: 0 };
  const { rowCount } = await sql.query(
    `INSERT INTO herald.suppressions (channel, address, reason, source, detail)
     SELECT a.channel, a.address, 'import', 'import', jsonb_build_object('importId', $2::text)
       FROM jsonb_to_recordset($1::jsonb) AS a(channel text, address text)
      WHERE NOT EXISTS (SELECT 1 FROM herald.suppressions h WHERE h.channel = a.channel AND h.address = herald.suppression_hash(a.channel, a.address))
     ON CONFLICT (channel, address) DO NOTHING`,
    [JSON.stringify(addresses), importId],
  );
  const created = rowCount ?? 0;
  return { created, updated: addresses.length - created };
}

/** What a category key (or alias) in a file stands for: its category, and whether it is mandatory. */
export interface ResolvedCategory {
  key: string;
  category: string | null;
  mandatory: boolean;
}

export async function resolveCategories(sql: Sql, keys: readonly string[]): Promise<Map<string, ResolvedCategory>> {
  if (keys.length === 0) return new Map();
  const { rows } = await sql.query<{ key: string; category: string | null; mandatory: boolean | null }>(
    `SELECT k.key, c.key AS category, c.mandatory
       FROM unnest($1::text[]) AS k(key)
       LEFT JOIN herald.category_aliases a ON a.alias = k.key
       LEFT JOIN herald.categories c ON c.key = coalesce(a.category_key, k.key)`,
    [[...new Set(keys)]],
  );
  return new Map(rows.map((r) => [r.key, { key: r.key, category: r.category, mandatory: r.mandatory ?? false }]));
}

/**
 * Opts a chunk of users out (preference rows with enabled = false, source `import`): users
 * Herald has not seen yet are created bare, so the opt-out is there before their first event.
 * Categories must already be resolved (resolveCategories). `updated` counts preferences that
 * were on and are now off.
 */
export async function optOutImportedUsers(
  sql: Sql,
  optOuts: ReadonlyArray<{ userId: string; channels: readonly string[]; category: string }>,
): Promise<AppliedCounts> {
  if (optOuts.length === 0) return { created: 0, updated: 0 };
  const input = JSON.stringify(optOuts);
  await sql.query(
    `INSERT INTO herald.users (external_id)
     SELECT DISTINCT o."userId" FROM jsonb_to_recordset($1::jsonb) AS o("userId" text)
     ON CONFLICT (external_id) DO NOTHING`,
    [input],
  );
  const { rows } = await sql.query<AppliedCounts>(
    `WITH wanted AS (
       SELECT DISTINCT u.id AS user_id, o.category, ch.channel
         FROM jsonb_to_recordset($1::jsonb) AS o("userId" text, channels text[], category text)
         JOIN herald.users u ON u.external_id = o."userId"
        CROSS JOIN unnest(o.channels) AS ch(channel)
     ), written AS (
       INSERT INTO herald.preferences AS p (user_id, category, channel, enabled, source, changed_at)
       SELECT user_id, category, channel, false, 'import', now() FROM wanted
       ON CONFLICT (user_id, category, channel) DO UPDATE SET enabled = false, source = 'import', changed_at = now()
        WHERE p.enabled
       RETURNING (xmax = 0) AS created
     ) ${COUNT_WRITTEN}`,
    [input],
  );
  return rows[0]!;
}
