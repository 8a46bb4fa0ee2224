import type { Sql } from "../sql.ts";
import { ensureUser } from "./users.ts";

export interface DeviceRecord {
  token: string;
  platform: string;
  active: boolean;
  deactivatedReason: string | null;
  deactivatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

function toDevice(r: Record<string, any>): DeviceRecord {
  return {
    token: r.token,
    platform: r.platform,
    active: r.active,
    deactivatedReason: r.deactivated_reason,
    deactivatedAt: r.deactivated_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const COLUMNS = "token, platform, active, deactivated_reason, deactivated_at, created_at, updated_at";

/** A token belongs to whoever registered it last (a shared tablet changes hands) and is active again. */
export async function registerDevice(
  sql: Sql,
  externalUserId: string,
  token: string,
  platform: string,
): Promise<{ device: DeviceRecord; created: boolean }> {
  const userId = await ensureUser(sql, externalUserId);
  const { rows } = await sql.query(
    `INSERT INTO herald.devices (user_id, token, platform) VALUES ($1, $2, $3)
     ON CONFLICT (token) DO UPDATE SET user_id = EXCLUDED.user_id, platform = EXCLUDED.platform, active = true,
       deactivated_reason = NULL, deactivated_at = NULL, updated_at = now()
     RETURNING ${COLUMNS}, (xmax = 0) AS created`,
    [userId, token, platform],
  );
  return { device: toDevice(rows[0]), created: rows[0].created };
}

/** Deactivates (never deletes) a user's device; false when the user has no such token. */
export async function deactivateDevice(sql: Sql, externalUserId: string, token: string, reason: string): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE herald.devices d SET active = false,
            deactivated_reason = CASE WHEN d.active THEN $3 ELSE d.deactivated_reason END,
            deactivated_at = coalesce(d.deactivated_at, now()), updated_at = now()
       FROM herald.users u
      WHERE u.external_id = $1 AND d.user_id = u.id AND d.token = $2`,
    [externalUserId, token, reason],
  );
  return rowCount === 1;
}

export async function listDevices(sql: Sql, externalUserId: string): Promise<DeviceRecord[]> {
  const { rows } = await sql.query(
    `SELECT ${COLUMNS.split(", ").map((c) => `d.${c}`).join(", ")}
       FROM herald.devices d JOIN herald.users u ON u.id = d.user_id
      WHERE u.external_id = $1 ORDER BY d.active DESC, d.updated_at DESC`,
    [externalUserId],
  );
  return rows.map(toDevice);
}
