import type { SuppressionReason } from "@herald/core";
import type { Sql } from "../sql.ts";

/** A suppression of one of a user's addresses: their email, their phone or one of their push tokens. */
export interface UserSuppression {
  channel: "push" | "email" | "sms";
  address: string;
  reason: SuppressionReason;
  source: string;
  detail: Record<string, unknown>;
  createdAt: Date;
}

/**
 * Suppressions matched exactly as the send-time gate matches them (herald.evaluate_gates): an
 * address, or its hash when an erased user held it before (`address` is then `sha256:…`).
 */
export async function listUserSuppressions(sql: Sql, externalUserId: string): Promise<UserSuppression[]> {
  const { rows } = await sql.query(
    `SELECT s.channel, s.address, s.reason, s.source, s.detail, s.created_at
       FROM herald.users u
       JOIN herald.suppressions s ON (s.channel = 'email' AND s.address IN (u.email, herald.suppression_hash('email', u.email)))
                                  OR (s.channel = 'sms' AND s.address IN (u.phone, herald.suppression_hash('sms', u.phone)))
                                  OR (s.channel = 'push' AND s.address IN (SELECT a FROM herald.devices d, LATERAL (VALUES (d.token), (herald.suppression_hash('push', d.token))) t(a)
                                                                            WHERE d.user_id = u.id))
      WHERE u.external_id = $1
      ORDER BY s.created_at DESC`,
    [externalUserId],
  );
  return rows.map((r) => ({ channel: r.channel, address: r.address, reason: r.reason, source: r.source, detail: r.detail, createdAt: r.created_at }));
}
