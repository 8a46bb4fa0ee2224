import type pg from "pg";
import { withTransaction } from "../sql.ts";
import { transitionBroadcast } from "./broadcasts.ts";

/**
 * Pauses a sending broadcast: its rows not yet in flight move to dispatch_state `paused` and
 * lose their job marker, so a job already queued for them finds nothing to claim; rows in flight
 * finish. Answers how many rows were held, or null when the broadcast was not sending.
 */
export async function pauseBroadcast(pool: pg.Pool, id: string, reason: string, memberId: string | null): Promise<number | null> {
  return withTransaction(pool, async (client) => {
    if (!(await transitionBroadcast(client, id, ["sending"], "paused", { pauseReason: reason, memberId }))) return null;
    const { rowCount } = await client.query(
      `UPDATE herald.notifications SET dispatch_state = 'paused', job_queued_at = NULL, updated_at = now()
        WHERE broadcast_id = $1 AND status = 'pending' AND dispatch_state IN ('queued', 'retry_wait', 'deferred')`,
      [id],
    );
    return rowCount ?? 0;
  });
}

/** Hands a paused broadcast's rows back to the pump; null when it was not paused. */
export async function resumeBroadcast(pool: pg.Pool, id: string, memberId: string): Promise<number | null> {
  return withTransaction(pool, async (client) => {
    if (!(await transitionBroadcast(client, id, ["paused"], "sending", { memberId }))) return null;
    const { rowCount } = await client.query(
      `UPDATE herald.notifications SET dispatch_state = 'queued', job_queued_at = NULL, updated_at = now()
        WHERE broadcast_id = $1 AND dispatch_state = 'paused'`,
      [id],
    );
    return rowCount ?? 0;
  });
}

/**
 * Cancels a scheduled, sending or paused broadcast: every row not yet in flight becomes
 * `canceled` (reason broadcast_canceled, logged); rows in flight finish. Null when the
 * broadcast could not be canceled from its status.
 */
export async function cancelBroadcast(pool: pg.Pool, id: string, memberId: string): Promise<number | null> {
  return withTransaction(pool, async (client) => {
    if (!(await transitionBroadcast(client, id, ["scheduled", "sending", "paused"], "canceled", { memberId }))) return null;
    const { rows } = await client.query(
      `WITH canceled AS (
         UPDATE herald.notifications SET status = 'canceled', reason = 'broadcast_canceled', dispatch_state = 'done',
                job_queued_at = NULL, updated_at = now()
          WHERE broadcast_id = $1 AND status = 'pending' AND dispatch_state <> 'in_flight'
         RETURNING id
       ), logged AS (
         INSERT INTO herald.notification_events (notification_id, type, detail)
         SELECT c.id, 'canceled', jsonb_build_object('reason', 'broadcast_canceled') FROM canceled c
       )
       SELECT count(*)::int AS n FROM canceled`,
      [id],
    );
    return rows[0].n;
  });
}

/** Sending broadcasts whose fan-out is done and whose rows are all settled: now `sent`. */
export async function completeFinishedBroadcasts(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query(
    `UPDATE herald.broadcasts b SET status = 'sent', finished_at = herald.clock(), updated_at = now()
      WHERE b.status = 'sending' AND b.fanout_done_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM herald.notifications n WHERE n.broadcast_id = b.id AND n.status = 'pending')
      RETURNING b.id::text`,
  );
  return rows.map((r) => r.id);
}

export interface DeliveryHealth {
  id: string;
  /** Emails handed to a provider (sent or further). */
  emailed: number;
  bounced: number;
  complaints: number;
}

/** Bounce and complaint counts of every sending broadcast, for the auto-pause check. */
export async function sendingBroadcastHealth(pool: pg.Pool): Promise<DeliveryHealth[]> {
  const { rows } = await pool.query(
    `SELECT b.id::text,
            count(n.id) FILTER (WHERE n.status IN ('sent', 'delivered', 'failed', 'bounced'))::int AS emailed,
            count(n.id) FILTER (WHERE n.status = 'bounced')::int AS bounced,
            (SELECT count(*) FROM herald.notification_events e JOIN herald.notifications c ON c.id = e.notification_id
              WHERE c.broadcast_id = b.id AND c.channel = 'email' AND e.type = 'complaint')::int AS complaints
       FROM herald.broadcasts b
       LEFT JOIN herald.notifications n ON n.broadcast_id = b.id AND n.channel = 'email'
      WHERE b.status = 'sending'
      GROUP BY b.id`,
  );
  return rows;
}
