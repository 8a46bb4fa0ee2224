import type { Sql } from "../sql.ts";

export type ApiKeyScope = "events" | "read" | "admin";

export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  scope: ApiKeyScope;
  ratePerMinute: number | null;
  createdBy: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A stored key with its hash, for the authenticating middleware only. */
export interface ApiKeyCredential extends ApiKeyRecord {
  keyHash: string;
}

const COLUMNS = "id::text, name, prefix, scope, rate_per_minute, created_by::text, created_at, last_used_at, revoked_at";

function toKey(r: Record<string, any>): ApiKeyRecord {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scope: r.scope,
    ratePerMinute: r.rate_per_minute,
    createdBy: r.created_by,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  };
}

export async function insertApiKey(
  sql: Sql,
  key: { name: string; prefix: string; keyHash: string; scope: ApiKeyScope; ratePerMinute: number | null; createdBy: string | null },
): Promise<ApiKeyRecord> {
  const { rows } = await sql.query(
    `INSERT INTO herald.api_keys (name, prefix, key_hash, scope, rate_per_minute, created_by)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [key.name, key.prefix, key.keyHash, key.scope, key.ratePerMinute, key.createdBy],
  );
  return toKey(rows[0]);
}

/** The key with this visible prefix, revoked or not; the caller compares hashes in constant time. */
export async function findApiKeyByPrefix(sql: Sql, prefix: string): Promise<ApiKeyCredential | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS}, key_hash FROM herald.api_keys WHERE prefix = $1`, [prefix]);
  return rows[0] ? { ...toKey(rows[0]), keyHash: rows[0].key_hash } : null;
}

export async function listApiKeys(sql: Sql): Promise<ApiKeyRecord[]> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM herald.api_keys ORDER BY revoked_at IS NOT NULL, created_at DESC`);
  return rows.map(toKey);
}

export async function revokeApiKey(sql: Sql, id: string): Promise<ApiKeyRecord | null> {
  const { rows } = await sql.query(
    `UPDATE herald.api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING ${COLUMNS}`,
    [id],
  );
  return rows[0] ? toKey(rows[0]) : null;
}

/** At most one write a minute per key, not one per request. */
export async function touchApiKey(sql: Sql, id: string): Promise<void> {
  await sql.query(
    "UPDATE herald.api_keys SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')",
    [id],
  );
}
