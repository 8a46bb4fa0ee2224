import type { Sql } from "../sql.ts";

/** A notification taken for sending, with what rendering and the gates need of its user. */
export interface ClaimedNotification {
  id: string;
  userId: string | null;
  externalUserId: string | null;
  type: string;
  channel: "push" | "email" | "sms";
  category: string;
  lane: "critical" | "bulk";
  content: Record<string, unknown> | null;
  templateKey: string | null;
  /** The version pinned at creation; null for inline content (or a template never published). */
  templateVersion: number | null;
  /** The user's locale when the notification was created, else their current one. */
  locale: string | null;
  vars: Record<string, unknown>;
  attemptCount: number;
  firstAttemptAt: Date | null;
  deferredMs: number;
  outageSince: Date | null;
  /** When the notification was created (its event came in): the start of end-to-end latency. */
  createdAt: Date;
  user: { email: string | null; phone: string | null; locale: string | null; timezone: string | null; attributes: Record<string, unknown> } | null;
}

/**
 * Marks the job's rows in flight and returns them. Only rows still pending are taken, and a row
 * another job holds in flight is never taken: a re-run of the same job (its worker died) may take
 * its own rows again. Time spent deferred since the first attempt is added to deferred_ms here,
 * so the max-age budget excludes it.
 */
export async function claimBatch(sql: Sql, ids: readonly string[], jobId: string): Promise<ClaimedNotification[]> {
  const { rows } = await sql.query(
    { name: "herald_claim_batch", text: `UPDATE herald.notifications n SET
        dispatch_state = 'in_flight',
        in_flight_job = $2,
        deferred_ms = n.deferred_ms + CASE WHEN n.deferred_since IS NOT NULL AND n.first_attempt_at IS NOT NULL
                        THEN (extract(epoch FROM now() - n.deferred_since) * 1000)::bigint ELSE 0 END,
        deferred_since = NULL,
        updated_at = now()
      FROM herald.notifications cur
      LEFT JOIN herald.users u ON u.id = cur.user_id
     WHERE n.id = cur.id AND n.id = ANY ($1::bigint[]) AND n.status = 'pending'
       AND (n.dispatch_state IN ('queued', 'retry_wait', 'deferred') OR (n.dispatch_state = 'in_flight' AND n.in_flight_job = $2))
    RETURNING n.id::text, n.user_id::text AS user_id, u.external_id, n.type, n.channel, n.category, n.lane, n.content,
              n.template_key, n.template_version, coalesce(n.locale, u.locale) AS notification_locale, n.vars, n.attempt_count, n.first_attempt_at, n.deferred_ms::float8 AS deferred_ms, n.outage_since, n.created_at,
              u.id IS NOT NULL AS has_user, u.email, u.phone, u.locale, u.timezone, u.attributes`, values: [ids, jobId] },
  );
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    externalUserId: r.external_id,
    type: r.type,
    channel: r.channel,
    category: r.category,
    lane: r.lane,
    content: r.content,
    templateKey: r.template_key,
    templateVersion: r.template_version,
    locale: r.notification_locale,
    vars: r.vars,
    attemptCount: r.attempt_count,
    firstAttemptAt: r.first_attempt_at,
    deferredMs: Number(r.deferred_ms),
    outageSince: r.outage_since,
    createdAt: r.created_at,
    user: r.has_user ? { email: r.email, phone: r.phone, locale: r.locale, timezone: r.timezone, attributes: r.attributes } : null,
  }));
}
