import type { Sql } from "../sql.ts";
import { ensureUser } from "./users.ts";

export interface ActivityInput {
  /** The caller's id for it: a retried request records the activity once. */
  id?: string | undefined;
  name: string;
  properties?: Record<string, unknown> | undefined;
  occurredAt?: string | undefined;
}

/** Records behaviour for segments; false when it was a duplicate of an id already recorded. */
export async function recordActivity(sql: Sql, externalUserId: string, activity: ActivityInput): Promise<boolean> {
  const userId = await ensureUser(sql, externalUserId);
  const { rowCount } = await sql.query(
    `INSERT INTO herald.activities (user_id, name, activity_key, properties, occurred_at)
     VALUES ($1, $2, $3, $4::jsonb, coalesce($5::timestamptz, now()))
     ON CONFLICT (user_id, activity_key) DO NOTHING`,
    [userId, activity.name, activity.id ?? null, JSON.stringify(activity.properties ?? {}), activity.occurredAt ?? null],
  );
  return rowCount === 1;
}
