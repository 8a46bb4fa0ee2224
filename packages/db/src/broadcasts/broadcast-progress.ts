import type { Sql } from "../sql.ts";

/** One slice of a broadcast's rows: per channel, variant (template version), status and reason. */
export interface BroadcastProgressRow {
  channel: "push" | "email" | "sms";
  version: number | null;
  status: string;
  reason: string | null;
  count: number;
  delivered: number;
  opened: number;
  clicked: number;
}

/** The broadcast's rows grouped for the progress counters and the report's funnel. */
export async function broadcastProgress(sql: Sql, id: string): Promise<BroadcastProgressRow[]> {
  const { rows } = await sql.query(
    `SELECT channel, template_version AS version, status, reason, count(*)::int AS count,
            count(delivered_at)::int AS delivered, count(opened_at)::int AS opened, count(clicked_at)::int AS clicked
       FROM herald.notifications WHERE broadcast_id = $1
      GROUP BY channel, template_version, status, reason
      ORDER BY channel, template_version, status, reason`,
    [id],
  );
  return rows;
}

export interface LiftGroup {
  users: number;
  converted: number;
}

/**
 * The holdout against the treated group: of each, how many users did `activity` within
 * `windowHours` of the broadcast's start. Treated means assigned a notification, whatever then
 * happened to it (intention to treat), so gates skipping some users do not bias the comparison.
 */
export async function broadcastLift(sql: Sql, id: string, activity: string, windowHours: number): Promise<{ holdout: LiftGroup; treated: LiftGroup }> {
  const { rows } = await sql.query(
    `WITH b AS (SELECT started_at FROM herald.broadcasts WHERE id = $1),
     members AS (
       SELECT h.user_id, true AS held FROM herald.broadcast_holdouts h WHERE h.broadcast_id = $1
       UNION ALL
       SELECT DISTINCT n.user_id, false FROM herald.notifications n WHERE n.broadcast_id = $1 AND n.user_id IS NOT NULL
     )
     SELECT m.held, count(*)::int AS users,
            count(*) FILTER (WHERE EXISTS (
              SELECT 1 FROM herald.activities a, b
               WHERE a.user_id = m.user_id AND a.name = $2
                 AND a.occurred_at >= b.started_at AND a.occurred_at < b.started_at + $3 * interval '1 hour'))::int AS converted
       FROM members m GROUP BY m.held`,
    [id, activity, windowHours],
  );
  const group = (held: boolean): LiftGroup => rows.find((r) => r.held === held) ?? { users: 0, converted: 0 };
  const pick = (g: LiftGroup) => ({ users: g.users, converted: g.converted });
  return { holdout: pick(group(true)), treated: pick(group(false)) };
}
