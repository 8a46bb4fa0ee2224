import type { Sql } from "../sql.ts";

export interface UserRecord {
  id: string;
  externalId: string;
  email: string | null;
  phone: string | null;
  timezone: string | null;
  locale: string | null;
  attributes: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

/** A partial update: absent keys stay, `null` deletes (a top-level field or an attribute). */
export interface UserPatch {
  email?: string | null;
  phone?: string | null;
  timezone?: string | null;
  locale?: string | null;
  attributes?: Record<string, unknown>;
}

const COLUMNS = "id::text, external_id, email, phone, timezone, locale, attributes, created_at, updated_at";

function toUser(r: Record<string, any>): UserRecord {
  return {
    id: r.id,
    externalId: r.external_id,
    email: r.email,
    phone: r.phone,
    timezone: r.timezone,
    locale: r.locale,
    attributes: r.attributes,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function findUser(sql: Sql, externalId: string): Promise<UserRecord | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM herald.users WHERE external_id = $1`, [externalId]);
  return rows[0] ? toUser(rows[0]) : null;
}

/** Creates the user if needed and merges the patch in one statement. */
export async function upsertUser(sql: Sql, externalId: string, patch: UserPatch): Promise<UserRecord> {
  const attributes = patch.attributes ?? {};
  const set = Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== null));
  const unset = Object.entries(attributes).filter(([, v]) => v === null).map(([k]) => k);
  const has = (key: keyof UserPatch) => key in patch;
  const { rows } = await sql.query(
    `INSERT INTO herald.users AS u (external_id, email, phone, timezone, locale, attributes)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb)
     ON CONFLICT (external_id) DO UPDATE SET
       email = CASE WHEN $7 THEN EXCLUDED.email ELSE u.email END,
       phone = CASE WHEN $8 THEN EXCLUDED.phone ELSE u.phone END,
       timezone = CASE WHEN $9 THEN EXCLUDED.timezone ELSE u.timezone END,
       locale = CASE WHEN $10 THEN EXCLUDED.locale ELSE u.locale END,
       attributes = (u.attributes || $6::jsonb) - $11::text[],
       updated_at = now()
     RETURNING ${COLUMNS}`,
    [
      externalId,
      patch.email ?? null,
      patch.phone ?? null,
      patch.timezone ?? null,
      patch.locale ?? null,
      JSON.stringify(set),
      has("email"),
      has("phone"),
      has("timezone"),
      has("locale"),
      unset,
    ],
  );
  return toUser(rows[0]);
}

/** The internal id of a user, created bare when Herald has never seen them. */
export async function ensureUser(sql: Sql, externalId: string): Promise<string> {
  const { rows } = await sql.query<{ id: string }>(
    `WITH found AS (SELECT id FROM herald.users WHERE external_id = $1),
          created AS (INSERT INTO herald.users (external_id) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM found)
                      ON CONFLICT (external_id) DO NOTHING RETURNING id)
     SELECT id::text FROM found UNION ALL SELECT id::text FROM created`,
    [externalId],
  );
  if (rows[0]) return rows[0].id;
  // A concurrent request created it between our snapshot and our insert.
  const again = await sql.query<{ id: string }>("SELECT id::text FROM herald.users WHERE external_id = $1", [externalId]);
  return again.rows[0]!.id;
}
