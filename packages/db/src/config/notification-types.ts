import type { Sql } from "../sql.ts";

export interface ChannelStep {
  channel: "push" | "email" | "sms";
  category: string;
  lane?: "critical" | "bulk";
  template?: string;
  content?: Record<string, unknown>;
}

export interface NotificationTypeRecord {
  type: string;
  channels: ChannelStep[];
  updatedAt: Date;
}

export async function findNotificationType(sql: Sql, type: string): Promise<NotificationTypeRecord | null> {
  const { rows } = await sql.query("SELECT type, channels, updated_at FROM herald.notification_types WHERE type = $1", [type]);
  return rows[0] ? { type: rows[0].type, channels: rows[0].channels, updatedAt: rows[0].updated_at } : null;
}

export async function listNotificationTypes(sql: Sql): Promise<NotificationTypeRecord[]> {
  const { rows } = await sql.query("SELECT type, channels, updated_at FROM herald.notification_types ORDER BY type");
  return rows.map((r) => ({ type: r.type, channels: r.channels, updatedAt: r.updated_at }));
}

/** Categories a set of steps names that do not exist (aliases count as existing). */
export async function findUnknownCategories(sql: Sql, categories: readonly string[]): Promise<string[]> {
  const { rows } = await sql.query<{ key: string }>(
    `SELECT k AS key FROM unnest($1::text[]) k
      WHERE NOT EXISTS (SELECT 1 FROM herald.categories c WHERE c.key = k)
        AND NOT EXISTS (SELECT 1 FROM herald.category_aliases a WHERE a.alias = k)`,
    [categories],
  );
  return rows.map((r) => r.key);
}

/** Stores a type's steps; events received afterwards are routed by them. */
export async function upsertNotificationType(sql: Sql, type: string, channels: readonly ChannelStep[]): Promise<{ record: NotificationTypeRecord; created: boolean }> {
  const { rows } = await sql.query(
    `INSERT INTO herald.notification_types AS t (type, channels) VALUES ($1, $2::jsonb)
     ON CONFLICT (type) DO UPDATE SET channels = EXCLUDED.channels, updated_at = now()
     RETURNING type, channels, updated_at, (xmax = 0) AS created`,
    [type, JSON.stringify(channels)],
  );
  const r = rows[0];
  return { record: { type: r.type, channels: r.channels, updatedAt: r.updated_at }, created: r.created };
}

/** Deletes a type; events of it received afterwards are refused as unknown. False when there was none. */
export async function deleteNotificationType(sql: Sql, type: string): Promise<boolean> {
  const { rowCount } = await sql.query("DELETE FROM herald.notification_types WHERE type = $1", [type]);
  return (rowCount ?? 0) > 0;
}
