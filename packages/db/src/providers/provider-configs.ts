import type { Sql } from "../sql.ts";

export type ProviderKind = "fcm" | "ses" | "twilio" | "webhook";

export interface ProviderConfigRecord {
  id: string;
  channel: "push" | "email" | "sms";
  role: "primary" | "secondary";
  kind: ProviderKind;
  settings: Record<string, unknown>;
  /** Sealed by the server's SecretBox; never leaves the server. */
  secretCiphertext: Buffer | null;
  enabled: boolean;
  updatedAt: Date;
}

function toConfig(r: Record<string, any>): ProviderConfigRecord {
  return {
    id: r.id,
    channel: r.channel,
    role: r.role,
    kind: r.kind,
    settings: r.settings,
    secretCiphertext: r.secret_ciphertext,
    enabled: r.enabled,
    updatedAt: r.updated_at,
  };
}

const COLUMNS = "id::text, channel, role, kind, settings, secret_ciphertext, enabled, updated_at";

export async function listProviderConfigs(sql: Sql): Promise<ProviderConfigRecord[]> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM herald.provider_configs ORDER BY channel, role`);
  return rows.map(toConfig);
}

/** Creates or replaces a channel's primary or secondary; a null secret keeps the stored one. */
export async function upsertProviderConfig(
  sql: Sql,
  config: { channel: string; role: string; kind: ProviderKind; settings: Record<string, unknown>; secretCiphertext: Buffer | null; enabled: boolean; updatedBy: string | null },
): Promise<ProviderConfigRecord> {
  const { rows } = await sql.query(
    `INSERT INTO herald.provider_configs AS p (channel, role, kind, settings, secret_ciphertext, enabled, updated_by)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7)
     ON CONFLICT (channel, role) DO UPDATE SET kind = EXCLUDED.kind, settings = EXCLUDED.settings,
       secret_ciphertext = coalesce(EXCLUDED.secret_ciphertext, CASE WHEN p.kind = EXCLUDED.kind THEN p.secret_ciphertext END),
       enabled = EXCLUDED.enabled, updated_by = EXCLUDED.updated_by, updated_at = now()
     RETURNING ${COLUMNS}`,
    [config.channel, config.role, config.kind, JSON.stringify(config.settings), config.secretCiphertext, config.enabled, config.updatedBy],
  );
  return toConfig(rows[0]);
}

export async function deleteProviderConfig(sql: Sql, channel: string, role: string): Promise<boolean> {
  const { rowCount } = await sql.query("DELETE FROM herald.provider_configs WHERE channel = $1 AND role = $2", [channel, role]);
  return rowCount === 1;
}

/** Bumps whenever any provider configuration changes: workers rebuild their providers on a change. */
export async function providerConfigVersion(sql: Sql): Promise<string> {
  const { rows } = await sql.query<{ v: string }>(
    "SELECT coalesce(max(updated_at)::text, '') || ':' || count(*) AS v FROM herald.provider_configs",
  );
  return rows[0]!.v;
}
