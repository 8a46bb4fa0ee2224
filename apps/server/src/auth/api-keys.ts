import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { findApiKeyByPrefix, insertApiKey, type ApiKeyRecord, type ApiKeyScope, type Sql } from "@herald/db";

/** Scopes nest: events ⊂ read ⊂ admin. */
const SCOPE_RANK: Record<ApiKeyScope, number> = { events: 0, read: 1, admin: 2 };

export function scopeAllows(held: ApiKeyScope, needed: ApiKeyScope): boolean {
  return SCOPE_RANK[held] >= SCOPE_RANK[needed];
}

const KEY_PATTERN = /^hk_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{32,64}$/;

/** Key format: hk_<8-character visible prefix>_<secret>. Only the prefix and a SHA-256 are stored. */
export async function createApiKey(
  sql: Sql,
  input: { name: string; scope: ApiKeyScope; ratePerMinute: number | null; createdBy: string | null },
): Promise<{ key: string; record: ApiKeyRecord }> {
  const prefix = `hk_${randomBytes(6).toString("base64url")}`;
  const key = `${prefix}_${randomBytes(32).toString("base64url")}`;
  const record = await insertApiKey(sql, { ...input, prefix, keyHash: sha256(key) });
  return { key, record };
}

/**
 * The live key behind a bearer token, or null. The lookup is by the public prefix; the secret
 * is compared as a hash in constant time, so timing tells nothing about it.
 */
export async function authenticateApiKey(sql: Sql, presented: string): Promise<ApiKeyRecord | null> {
  if (!KEY_PATTERN.test(presented)) return null;
  const stored = await findApiKeyByPrefix(sql, presented.slice(0, 11));
  const expected = Buffer.from(stored?.keyHash ?? "0".repeat(64), "hex");
  const matches = timingSafeEqual(expected, Buffer.from(sha256(presented), "hex"));
  if (!stored || !matches || stored.revokedAt) return null;
  const { keyHash: _hash, ...record } = stored;
  return record;
}

function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
