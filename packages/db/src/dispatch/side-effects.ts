import type { Sql } from "../sql.ts";

export interface Suppression {
  channel: "push" | "email" | "sms";
  address: string;
  reason: "hard_bounce" | "complaint" | "stop" | "invalid" | "manual" | "import";
  source: string;
  detail?: Record<string, unknown>;
}

/** Records what a provider told us about an address. The first suppression of an address stays. */
export async function suppressAddresses(sql: Sql, suppressions: readonly Suppression[]): Promise<number> {
  if (suppressions.length === 0) return 0;
  const { rowCount } = await sql.query(
    `INSERT INTO herald.suppressions (channel, address, reason, source, detail)
     SELECT s.channel, s.address, s.reason, s.source, coalesce(s.detail, '{}'::jsonb)
       FROM jsonb_to_recordset($1::jsonb) AS s(channel text, address text, reason text, source text, detail jsonb)
     ON CONFLICT (channel, address) DO NOTHING`,
    [JSON.stringify(suppressions)],
  );
  return rowCount ?? 0;
}

/** Invalid push tokens are deactivated, never deleted: the history stays. */
export async function deactivateTokens(sql: Sql, tokens: ReadonlyArray<{ token: string; reason: string }>): Promise<number> {
  if (tokens.length === 0) return 0;
  const { rowCount } = await sql.query(
    `UPDATE herald.devices d SET active = false, deactivated_reason = t.reason, deactivated_at = herald.clock(), updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS t(token text, reason text)
      WHERE d.token = t.token AND d.active`,
    [JSON.stringify(tokens)],
  );
  return rowCount ?? 0;
}
