import type { Sql } from "../sql.ts";
import { ensureUser } from "./users.ts";

export interface ResolvedPreference {
  category: string;
  channel: "push" | "email" | "sms";
  enabled: boolean;
  mandatory: boolean;
  /** "default" when no row exists for this (category, channel): the category's default applies. */
  source: string;
  changedAt: Date | null;
}

/** The whole category × channel matrix for a user: stored choices, defaults and mandatory categories. */
export async function getPreferenceMatrix(sql: Sql, externalUserId: string): Promise<ResolvedPreference[]> {
  const { rows } = await sql.query(
    `SELECT c.key AS category, ch.channel, c.mandatory,
            c.mandatory OR coalesce(p.enabled, coalesce((c.defaults ->> ch.channel)::boolean, true)) AS enabled,
            coalesce(p.source, 'default') AS source, p.changed_at
       FROM herald.categories c
      CROSS JOIN unnest(ARRAY['push', 'email', 'sms']) AS ch(channel)
       LEFT JOIN herald.users u ON u.external_id = $1
       LEFT JOIN herald.preferences p ON p.user_id = u.id AND p.category = c.key AND p.channel = ch.channel
      ORDER BY c.key, array_position(ARRAY['push', 'email', 'sms'], ch.channel)`,
    [externalUserId],
  );
  return rows.map((r) => ({
    category: r.category,
    channel: r.channel,
    enabled: r.enabled,
    mandatory: r.mandatory,
    source: r.source,
    changedAt: r.changed_at,
  }));
}

export type SetPreferencesResult =
  | { kind: "ok" }
  | { kind: "unknown_category"; categories: string[] }
  | { kind: "mandatory_category"; categories: string[] };

/**
 * Stores choices (aliases resolve to their category). Opting out of a mandatory category is
 * refused as a whole, and nothing is written.
 */
export async function setPreferences(
  sql: Sql,
  externalUserId: string,
  preferences: ReadonlyArray<{ category: string; channel: string; enabled: boolean }>,
  source: "api" | "unsubscribe_link" | "support" | "import" | "dashboard",
): Promise<SetPreferencesResult> {
  const input = JSON.stringify(preferences);
  const { rows } = await sql.query<{ wanted: string; key: string | null; mandatory: boolean | null; enabled: boolean }>(
    `SELECT p.category AS wanted, c.key, c.mandatory, p.enabled
       FROM jsonb_to_recordset($1::jsonb) AS p(category text, channel text, enabled boolean)
       LEFT JOIN herald.category_aliases a ON a.alias = p.category
       LEFT JOIN herald.categories c ON c.key = coalesce(a.category_key, p.category)`,
    [input],
  );
  const unknown = rows.filter((r) => r.key === null).map((r) => r.wanted);
  if (unknown.length > 0) return { kind: "unknown_category", categories: [...new Set(unknown)] };
  const mandatory = rows.filter((r) => r.mandatory && !r.enabled).map((r) => r.key!);
  if (mandatory.length > 0) return { kind: "mandatory_category", categories: [...new Set(mandatory)] };
  const userId = await ensureUser(sql, externalUserId);
  await sql.query(
    `INSERT INTO herald.preferences (user_id, category, channel, enabled, source, changed_at)
     SELECT DISTINCT ON (coalesce(a.category_key, p.category), p.channel)
            $2, coalesce(a.category_key, p.category), p.channel, p.enabled, $3, now()
       FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (category text, channel text, enabled boolean)) WITH ORDINALITY AS p(category, channel, enabled, ord)
       LEFT JOIN herald.category_aliases a ON a.alias = p.category
      ORDER BY coalesce(a.category_key, p.category), p.channel, p.ord DESC
     ON CONFLICT (user_id, category, channel) DO UPDATE SET enabled = EXCLUDED.enabled, source = EXCLUDED.source,
       changed_at = EXCLUDED.changed_at
     WHERE herald.preferences.enabled <> EXCLUDED.enabled OR herald.preferences.source <> EXCLUDED.source`,
    [input, userId, source],
  );
  return { kind: "ok" };
}

/** Forgets a user's choice for one (category, channel), so the category's default applies again. */
export async function resetPreference(sql: Sql, externalUserId: string, category: string, channel: string): Promise<boolean> {
  const { rowCount } = await sql.query(
    `DELETE FROM herald.preferences p USING herald.users u
      WHERE u.external_id = $1 AND p.user_id = u.id AND p.category = $2 AND p.channel = $3`,
    [externalUserId, category, channel],
  );
  return (rowCount ?? 0) > 0;
}
