import type pg from "pg";
import { withTransaction, type Sql } from "../sql.ts";

export type TemplateVersionStatus = "draft" | "published" | "archived";

/** A version's body as stored; the server validates it with @herald/core's TemplateBodySchema. */
export interface StoredTemplateBody {
  variables: unknown[];
  content: Record<string, unknown>;
}

export interface TemplateVersionSummary {
  /** null for the draft. */
  version: number | null;
  status: TemplateVersionStatus;
  basedOn: number | null;
  updatedAt: Date;
  updatedBy: string | null;
  publishedAt: Date | null;
  publishedBy: string | null;
}

export interface TemplateVersionRecord extends TemplateVersionSummary {
  /** The locale it falls back to, frozen at publish; null for the draft. */
  defaultLocale: string | null;
  body: StoredTemplateBody;
}

const SUMMARY = `v.version, v.status, v.based_on, v.updated_at, v.published_at, v.default_locale,
  editor.name AS updated_by_name, publisher.name AS published_by_name`;
const FROM = `herald.template_versions v
  LEFT JOIN herald.members editor ON editor.id = v.updated_by
  LEFT JOIN herald.members publisher ON publisher.id = v.published_by`;

function toSummary(r: Record<string, any>): TemplateVersionSummary {
  return {
    version: r.version,
    status: r.status,
    basedOn: r.based_on,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by_name,
    publishedAt: r.published_at,
    publishedBy: r.published_by_name,
  };
}

/** The draft first, then published and archived versions, newest first. */
export async function listTemplateVersions(sql: Sql, key: string): Promise<TemplateVersionSummary[]> {
  const { rows } = await sql.query(`SELECT ${SUMMARY} FROM ${FROM} WHERE v.template_key = $1 ORDER BY v.version DESC NULLS FIRST`, [key]);
  return rows.map(toSummary);
}

export async function findTemplateVersion(sql: Sql, key: string, version: number | "draft"): Promise<TemplateVersionRecord | null> {
  const { rows } = await sql.query(
    `SELECT ${SUMMARY}, v.variables, v.content FROM ${FROM}
      WHERE v.template_key = $1 AND (CASE WHEN $2::int IS NULL THEN v.status = 'draft' ELSE v.version = $2 END)`,
    [key, version === "draft" ? null : version],
  );
  const r = rows[0];
  return r ? { ...toSummary(r), defaultLocale: r.default_locale, body: { variables: r.variables, content: r.content } } : null;
}

/** Creates or replaces the template's one draft; null when the template is unknown. */
export async function saveTemplateDraft(
  sql: Sql,
  key: string,
  body: StoredTemplateBody,
  memberId: string,
): Promise<{ savedAt: Date } | null> {
  const { rows } = await sql.query(
    `WITH saved AS (
       INSERT INTO herald.template_versions AS v (template_key, status, variables, content, based_on, updated_by)
       SELECT t.key, 'draft', $2::jsonb, $3::jsonb, t.current_version, $4 FROM herald.templates t WHERE t.key = $1
       ON CONFLICT (template_key) WHERE status = 'draft'
       DO UPDATE SET variables = EXCLUDED.variables, content = EXCLUDED.content, updated_by = EXCLUDED.updated_by, updated_at = now()
       RETURNING v.updated_at
     ), touched AS (
       UPDATE herald.templates SET updated_at = now(), updated_by = $4 WHERE key = $1 AND EXISTS (SELECT 1 FROM saved)
     )
     SELECT updated_at FROM saved`,
    [key, JSON.stringify(body.variables), JSON.stringify(body.content), memberId],
  );
  return rows[0] ? { savedAt: rows[0].updated_at } : null;
}

/**
 * Starts a draft from a published or archived version. Answers "draft_exists" rather than
 * overwriting someone's unpublished work unless `replace` says to.
 */
export async function startDraftFromVersion(
  pool: pg.Pool,
  key: string,
  version: number,
  memberId: string,
  replace: boolean,
): Promise<"started" | "draft_exists" | "not_found"> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query("SELECT 1 FROM herald.templates WHERE key = $1 FOR UPDATE", [key]);
    if (rows.length === 0) return "not_found";
    const source = await findTemplateVersion(client, key, version);
    if (!source || source.status === "draft") return "not_found";
    const { rowCount } = await client.query("SELECT 1 FROM herald.template_versions WHERE template_key = $1 AND status = 'draft'", [key]);
    if (rowCount && !replace) return "draft_exists";
    await client.query("DELETE FROM herald.template_versions WHERE template_key = $1 AND status = 'draft'", [key]);
    await client.query(
      `INSERT INTO herald.template_versions (template_key, status, variables, content, based_on, updated_by)
       VALUES ($1, 'draft', $2::jsonb, $3::jsonb, $4, $5)`,
      [key, JSON.stringify(source.body.variables), JSON.stringify(source.body.content), version, memberId],
    );
    await client.query("UPDATE herald.templates SET updated_at = now(), updated_by = $2 WHERE key = $1", [key, memberId]);
    return "started";
  });
}

export async function discardTemplateDraft(sql: Sql, key: string): Promise<boolean> {
  const { rowCount } = await sql.query("DELETE FROM herald.template_versions WHERE template_key = $1 AND status = 'draft'", [key]);
  return rowCount === 1;
}

export type PublishOutcome =
  | { kind: "published"; version: number; previous: StoredTemplateBody | null; published: StoredTemplateBody }
  | { kind: "no_draft" }
  | { kind: "not_found" }
  | { kind: "refused"; problems: unknown[] };

/**
 * Publishes the draft as version N+1 and makes it current, in one transaction holding the
 * template's row lock, so two publishers can neither take the same number nor interleave.
 * `check` sees the draft and the template's settings and returns its problems: any refuses.
 */
export async function publishTemplateDraft(
  pool: pg.Pool,
  key: string,
  memberId: string,
  check: (draft: StoredTemplateBody, template: { channels: string[]; defaultLocale: string }) => unknown[],
): Promise<PublishOutcome> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query("SELECT channels, default_locale, current_version FROM herald.templates WHERE key = $1 FOR UPDATE", [key]);
    const template = rows[0];
    if (!template) return { kind: "not_found" };
    const draft = await findTemplateVersion(client, key, "draft");
    if (!draft) return { kind: "no_draft" };
    const problems = check(draft.body, { channels: template.channels, defaultLocale: template.default_locale });
    if (problems.length > 0) return { kind: "refused", problems };
    const previous = template.current_version === null ? null : await findTemplateVersion(client, key, template.current_version);
    const { rows: published } = await client.query(
      `UPDATE herald.template_versions SET status = 'published', published_at = now(), published_by = $2, default_locale = $3,
              version = (SELECT coalesce(max(version), 0) + 1 FROM herald.template_versions WHERE template_key = $1)
        WHERE template_key = $1 AND status = 'draft'
        RETURNING version`,
      [key, memberId, template.default_locale],
    );
    const version: number = published[0].version;
    await client.query("UPDATE herald.templates SET current_version = $2, updated_at = now(), updated_by = $3 WHERE key = $1", [key, version, memberId]);
    return { kind: "published", version, previous: previous?.body ?? null, published: draft.body };
  });
}

/** Archives a published version that is not current; it stays renderable for what pinned it. */
export async function archiveTemplateVersion(sql: Sql, key: string, version: number): Promise<"archived" | "current" | "not_found"> {
  const { rows } = await sql.query(
    `WITH target AS (
       SELECT v.id, t.current_version = v.version AS is_current
         FROM herald.template_versions v JOIN herald.templates t ON t.key = v.template_key
        WHERE v.template_key = $1 AND v.version = $2 AND v.status = 'published'
     ), archived AS (
       UPDATE herald.template_versions v SET status = 'archived'
         FROM target WHERE v.id = target.id AND NOT target.is_current
       RETURNING v.id
     )
     SELECT (SELECT is_current FROM target) AS is_current, EXISTS (SELECT 1 FROM archived) AS archived`,
    [key, version],
  );
  const r = rows[0];
  return r.archived ? "archived" : r.is_current ? "current" : "not_found";
}

export interface PinnedTemplateVersion {
  key: string;
  version: number;
  defaultLocale: string;
  body: StoredTemplateBody;
}

/** The bodies of pinned versions, for rendering a dispatch batch; one query whatever the batch. */
export async function loadPinnedTemplateVersions(
  sql: Sql,
  pins: ReadonlyArray<{ key: string; version: number }>,
): Promise<PinnedTemplateVersion[]> {
  if (pins.length === 0) return [];
  const { rows } = await sql.query({
    name: "herald_load_pinned_template_versions",
    text: `SELECT v.template_key, v.version, v.default_locale, v.variables, v.content
             FROM unnest($1::text[], $2::int[]) AS p(key, version)
             JOIN herald.template_versions v ON v.template_key = p.key AND v.version = p.version`,
    values: [pins.map((p) => p.key), pins.map((p) => p.version)],
  });
  return rows.map((r) => ({ key: r.template_key, version: r.version, defaultLocale: r.default_locale, body: { variables: r.variables, content: r.content } }));
}
