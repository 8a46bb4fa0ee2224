import type { Sql } from "../sql.ts";

/** What one channel's lane still has to send, right now. */
export interface LaneBacklog {
  channel: string;
  lane: string;
  /** Due and waiting for the pump to give it a job. */
  waiting: number;
  /** Holding a job (queued in graphile-worker or running). */
  inFlight: number;
  /** When the longest-waiting due row fell due; null when nothing is due. */
  oldestDueAt: Date | null;
}

// Every (channel, lane) is asked separately through LATERAL so each count is one range of
// notifications_pump_idx (channel, lane, next_attempt_at) bounded by now(): rows scheduled for
// later (quiet hours, local-time broadcasts) and settled rows are never read. Rows holding a job
// come from notifications_in_flight_idx, which the pump's per-lane job cap keeps small.
/** The backlog per channel and lane, from the two partial indexes the pump and reaper use. */
export async function listBacklog(sql: Sql): Promise<LaneBacklog[]> {
  const { rows } = await sql.query(
    { name: "herald_operations_backlog", text: `WITH lanes AS (
       SELECT c AS channel, l AS lane FROM unnest(ARRAY['push', 'email', 'sms']) c CROSS JOIN unnest(ARRAY['critical', 'bulk']) l
     ), working AS (
       SELECT channel, lane, count(*) AS in_flight, min(next_attempt_at) FILTER (WHERE next_attempt_at <= now()) AS oldest
         FROM herald.notifications
        WHERE dispatch_state = 'in_flight' OR (job_queued_at IS NOT NULL AND dispatch_state <> 'done')
        GROUP BY channel, lane
     )
     SELECT lanes.channel, lanes.lane, w.waiting, coalesce(working.in_flight, 0) AS in_flight,
            least(w.oldest, working.oldest) AS oldest_due_at
       FROM lanes
       CROSS JOIN LATERAL (
         SELECT count(*) AS waiting, min(n.next_attempt_at) AS oldest FROM herald.notifications n
          WHERE n.channel = lanes.channel AND n.lane = lanes.lane AND n.next_attempt_at <= now()
            AND n.job_queued_at IS NULL AND n.dispatch_state IN ('queued', 'retry_wait', 'deferred')
       ) w
       LEFT JOIN working USING (channel, lane)
      ORDER BY lanes.channel, lanes.lane = 'bulk'` },
  );
  return rows.map((r) => ({
    channel: r.channel,
    lane: r.lane,
    waiting: Number(r.waiting),
    inFlight: Number(r.in_flight),
    oldestDueAt: r.oldest_due_at,
  }));
}
