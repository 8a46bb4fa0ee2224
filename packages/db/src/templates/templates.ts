import type { Sql } from "../sql.ts";

export type TemplateChannel = "push" | "email" | "sms";

export interface TemplateRecord {
  key: string;
  name: string;
  channels: TemplateChannel[];
  defaultCategory: string | null;
  defaultLocale: string;
  currentVersion: number | null;
  hasDraft: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** The editing member's name, or null when they were deleted. */
  updatedBy: string | null;
}

const COLUMNS = `t.key, t.name, t.channels, t.default_category, t.default_locale, t.current_version, t.created_at, t.updated_at,
  m.name AS updated_by_name,
  EXISTS (SELECT 1 FROM herald.template_versions d WHERE d.template_key = t.key AND d.status = 'draft') AS has_draft`;
const FROM = "herald.templates t LEFT JOIN herald.members m ON m.id = t.updated_by";

function toTemplate(r: Record<string, any>): TemplateRecord {
  return {
    key: r.key,
    name: r.name,
    channels: r.channels,
    defaultCategory: r.default_category,
    defaultLocale: r.default_locale,
    currentVersion: r.current_version,
    hasDraft: r.has_draft,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by_name,
  };
}

/** One page of templates in key order, optionally filtered by a key or name substring. */
export async function listTemplates(
  sql: Sql,
  { search, after, limit }: { search?: string; after?: string | null; limit: number },
): Promise<{ items: TemplateRecord[]; nextCursor: string | null }> {
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const { rows } = await sql.query(
    `SELECT ${COLUMNS} FROM ${FROM}
      WHERE ($1::text IS NULL OR t.key ILIKE $1 OR t.name ILIKE $1) AND ($2::text IS NULL OR t.key > $2)
      ORDER BY t.key LIMIT $3`,
    [pattern, after ?? null, limit + 1],
  );
  const items = rows.slice(0, limit).map(toTemplate);
  return { items, nextCursor: rows.length > limit ? items[items.length - 1]!.key : null };
}

export async function findTemplate(sql: Sql, key: string): Promise<TemplateRecord | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM ${FROM} WHERE t.key = $1`, [key]);
  return rows[0] ? toTemplate(rows[0]) : null;
}

/** Creates a template with its first, empty draft; null when the key is taken. */
export async function createTemplate(
  sql: Sql,
  t: { key: string; name: string; channels: readonly TemplateChannel[]; defaultCategory: string | null; defaultLocale: string; memberId: string; draft: { variables: unknown[]; content: Record<string, unknown> } },
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `WITH created AS (
       INSERT INTO herald.templates (key, name, channels, default_category, default_locale, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (key) DO NOTHING RETURNING key
     )
     INSERT INTO herald.template_versions (template_key, status, variables, content, updated_by)
     SELECT key, 'draft', $7::jsonb, $8::jsonb, $6 FROM created`,
    [t.key, t.name, t.channels, t.defaultCategory, t.defaultLocale, t.memberId, JSON.stringify(t.draft.variables), JSON.stringify(t.draft.content)],
  );
  return rowCount === 1;
}

/** Changes a template's name, channels, default category or locale; false when it is unknown. */
export async function updateTemplate(
  sql: Sql,
  key: string,
  change: { name?: string; channels?: readonly TemplateChannel[]; defaultCategory?: string | null; defaultLocale?: string; memberId: string },
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE herald.templates SET
       name = coalesce($2, name), channels = coalesce($3, channels),
       default_category = CASE WHEN $4 THEN $5 ELSE default_category END,
       default_locale = coalesce($6, default_locale), updated_by = $7, updated_at = now()
     WHERE key = $1`,
    [key, change.name ?? null, change.channels ?? null, change.defaultCategory !== undefined, change.defaultCategory ?? null, change.defaultLocale ?? null, change.memberId],
  );
  return rowCount === 1;
}

/** The channels of each named template that has a published version; unknown or unpublished keys are absent. */
export async function findPublishedTemplateChannels(sql: Sql, keys: readonly string[]): Promise<Map<string, TemplateChannel[]>> {
  const { rows } = await sql.query<{ key: string; channels: TemplateChannel[] }>(
    "SELECT key, channels FROM herald.templates WHERE key = ANY ($1::text[]) AND current_version IS NOT NULL",
    [keys],
  );
  return new Map(rows.map((r) => [r.key, r.channels]));
}
