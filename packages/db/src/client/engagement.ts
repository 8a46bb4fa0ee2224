import type { Sql } from "../sql.ts";

/** An open (pixel load) or a click (tracked link) on an email. */
export interface EngagementInput {
  notificationId: string;
  kind: "opened" | "clicked";
  detail?: Record<string, unknown>;
  /**
   * Whether this engagement may set the first-time timestamp (opened_at/clicked_at). False for
   * opens fetched by a privacy proxy: they are logged but say nothing about the person.
   */
  countsAsFirst: boolean;
}

/**
 * Records an engagement on an email notification by its id (tracking links carry the id, not a
 * provider message id): every one is appended to the log, the first counting one sets the
 * timestamp, and the status never moves. Nothing is written unless the notification's category
 * still tracks that kind: switching tracking off stops recording at once, for old emails too.
 * Returns whether anything was recorded.
 */
export async function recordEngagement(sql: Sql, input: EngagementInput): Promise<boolean> {
  const { rows } = await sql.query<{ recorded: boolean }>(
    `WITH target AS (
       SELECT n.id FROM herald.notifications n
         JOIN herald.categories c ON c.key = n.category
        WHERE n.id = $1::bigint AND n.channel = 'email'
          AND coalesce((c.tracking ->> CASE $2::text WHEN 'opened' THEN 'opens' ELSE 'clicks' END)::boolean, false)
     ), upd AS (
       UPDATE herald.notifications n SET
         opened_at = CASE WHEN $2::text = 'opened' THEN coalesce(n.opened_at, now()) ELSE n.opened_at END,
         clicked_at = CASE WHEN $2::text = 'clicked' THEN coalesce(n.clicked_at, now()) ELSE n.clicked_at END,
         updated_at = now()
         FROM target t
        WHERE n.id = t.id AND $4::boolean
          AND CASE $2::text WHEN 'opened' THEN n.opened_at ELSE n.clicked_at END IS NULL
     ), logged AS (
       INSERT INTO herald.notification_events (notification_id, type, detail)
       SELECT t.id, $2::text, $3::jsonb FROM target t
     )
     SELECT EXISTS (SELECT 1 FROM target) AS recorded`,
    [input.notificationId, input.kind, JSON.stringify(input.detail ?? {}), input.countsAsFirst],
  );
  return rows[0]?.recorded ?? false;
}
