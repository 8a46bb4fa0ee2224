import { setPreferences } from "../audience/preferences.ts";
import type { Sql } from "../sql.ts";

/** The recipient an unsubscribe link names (by internal id), or null once the user is gone. */
export async function findLinkRecipient(sql: Sql, userId: string): Promise<{ externalId: string; timezone: string | null } | null> {
  const { rows } = await sql.query("SELECT external_id, timezone FROM herald.users WHERE id = $1::bigint", [userId]);
  return rows[0] ? { externalId: rows[0].external_id, timezone: rows[0].timezone } : null;
}

/** One quiet-hours window: the default ('*', '*') or an override for a category and channel. */
export interface QuietHoursWindow {
  category: string;
  channel: string;
  start: string;
  end: string;
  timezone: string | null;
}

export async function listQuietHours(sql: Sql, userId: string): Promise<QuietHoursWindow[]> {
  const { rows } = await sql.query(
    `SELECT category, channel, to_char(start_time, 'HH24:MI') AS start, to_char(end_time, 'HH24:MI') AS "end", timezone
       FROM herald.quiet_hours WHERE user_id = $1::bigint
      ORDER BY (category <> '*'), category, (channel <> '*'), channel`,
    [userId],
  );
  return rows.map((r) => ({ category: r.category, channel: r.channel, start: r.start, end: r.end, timezone: r.timezone }));
}

export interface LinkPreferenceInput {
  /** The notification whose link was used: the change is attributed to it. */
  notificationId: string;
  userId: string;
  category: string;
  channel: "push" | "email" | "sms";
  enabled: boolean;
  /** "one_click" for a mail client's RFC 8058 POST, "page" for the preference page's forms. */
  via: "one_click" | "page";
  ip: string | null;
}

export type LinkPreferenceResult =
  | { kind: "changed" }
  | { kind: "unchanged" }
  | { kind: "mandatory" }
  | { kind: "unknown_category" }
  | { kind: "unknown_user" };

/**
 * A preference change made through an unsubscribe link (never a suppression). Run it in a
 * transaction: the user's row is locked so that concurrent POSTs of one link serialize, and only
 * the one that changes the stored choice writes it, the notification event (`unsubscribed` or
 * `resubscribed`, attributed to the link's notification) and the audit entry. A repeat is
 * "unchanged" and writes nothing.
 */
export async function applyLinkPreference(tx: Sql, input: LinkPreferenceInput): Promise<LinkPreferenceResult> {
  const { rows: users } = await tx.query<{ external_id: string }>("SELECT external_id FROM herald.users WHERE id = $1::bigint FOR UPDATE", [
    input.userId,
  ]);
  const externalId = users[0]?.external_id;
  if (externalId === undefined) return { kind: "unknown_user" };
  const { rows } = await tx.query<{ mandatory: boolean; stored: boolean | null }>(
    `SELECT c.mandatory, p.enabled AS stored
       FROM herald.categories c
       LEFT JOIN herald.preferences p ON p.user_id = $1::bigint AND p.category = c.key AND p.channel = $3
      WHERE c.key = $2`,
    [input.userId, input.category, input.channel],
  );
  const category = rows[0];
  if (!category) return { kind: "unknown_category" };
  if (category.mandatory) return { kind: "mandatory" };
  if (category.stored === input.enabled) return { kind: "unchanged" };

  const result = await setPreferences(tx, externalId, [{ category: input.category, channel: input.channel, enabled: input.enabled }], "unsubscribe_link");
  if (result.kind !== "ok") throw new Error(`setPreferences refused a checked link preference: ${result.kind}`);
  const detail = { category: input.category, channel: input.channel, via: input.via, source: "unsubscribe_link" };
  await tx.query(
    `WITH logged AS (
       INSERT INTO herald.notification_events (notification_id, type, detail)
       SELECT n.id, $2, $3::jsonb FROM herald.notifications n WHERE n.id = $1::bigint
     )
     INSERT INTO herald.audit_log (actor, action, target, detail, ip)
     VALUES ('unsubscribe_link', $4, $5, $3::jsonb || jsonb_build_object('notificationId', $1::bigint::text), $6)`,
    [
      input.notificationId,
      input.enabled ? "resubscribed" : "unsubscribed",
      JSON.stringify(detail),
      input.enabled ? "preferences.resubscribe" : "preferences.unsubscribe",
      `user:${externalId}`,
      input.ip,
    ],
  );
  return { kind: "changed" };
}
