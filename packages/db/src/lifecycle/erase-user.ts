import type pg from "pg";
import { withTransaction } from "../sql.ts";

/** Who asked for an erasure, for the audit entry (never who was erased). */
export interface ErasureActor {
  memberId: string | null;
  actor: string;
  ip?: string | null;
}

/** What one erasure did, by table: the audit entry's detail and the API's answer. */
export interface ErasureSummary {
  /** The user's internal id, gone with the row: the audit entries about them now point at `erased-user:<id>`. */
  erasedRef: string;
  notificationsAnonymised: number;
  notificationsCanceled: number;
  notificationEventsScrubbed: number;
  suppressionsHashed: number;
  sandboxMessagesScrubbed: number;
  webhookEventsScrubbed: number;
  importRowsDeleted: number;
  auditEntriesScrubbed: number;
  devicesDeleted: number;
  preferencesDeleted: number;
  quietHoursDeleted: number;
  activitiesDeleted: number;
  eventsDeleted: number;
  broadcastHoldoutsDeleted: number;
}

/** Every spelling of a value a provider or a form may have stored: as is, lower-cased, URL-encoded. */
function spellings(values: ReadonlyArray<string | null>): string[] {
  const out = new Set<string>();
  for (const v of values) {
    if (!v) continue;
    out.add(v);
    out.add(v.toLowerCase());
    out.add(encodeURIComponent(v));
  }
  return [...out];
}

/**
 * Erases one user (the right to be forgotten), in one transaction: it either all happens or none
 * of it does, and a second call finds nobody and returns null. Deleted: the profile, devices,
 * preferences, quiet hours, activities (and their summaries), received events, broadcast holdouts and import staging
 * rows that name them. Kept but anonymised: their notifications (type, channel, category,
 * template, broadcast, status and timestamps stay, so rollups and counts keep working) and those
 * notifications' event log, sandbox messages and webhooks, with every spelling of their
 * addresses replaced by [erased]. Their suppressions stay as herald.suppression_hash(...), which
 * the gates still match. Pending notifications are canceled (reason user_erased) so none is sent.
 */
export async function eraseUser(pool: pg.Pool, externalId: string, by: ErasureActor): Promise<ErasureSummary | null> {
  return withTransaction(pool, async (tx) => {
    const { rows: users } = await tx.query<{ id: string; email: string | null; phone: string | null; tokens: string[] }>(
      `SELECT u.id::text, u.email, u.phone,
              coalesce((SELECT array_agg(d.token) FROM herald.devices d WHERE d.user_id = u.id), '{}') AS tokens
         FROM herald.users u WHERE u.external_id = $1 FOR UPDATE`,
      [externalId],
    );
    const user = users[0];
    if (!user) return null;
    const addresses = [
      ...(user.email ? [{ channel: "email", address: user.email }] : []),
      ...(user.phone ? [{ channel: "sms", address: user.phone }] : []),
      ...user.tokens.map((token) => ({ channel: "push", address: token })),
    ];
    const values = spellings([user.email, user.phone, ...user.tokens]);
    const count = async (text: string, params: unknown[]): Promise<number> => (await tx.query(text, params)).rowCount ?? 0;

    // Before any row a batch writes is locked: a batch sending to them holds these keys until
    // its calls are answered and writes its attempts meanwhile (decision 0019).
    await tx.query(
      `SELECT herald.lock_consent(array_agg(herald.consent_lock_key(k.kind, k.value)))
         FROM unnest($1::text[], $2::text[]) AS k(kind, value)`,
      [["user", ...addresses.map(() => "address")], [user.id, ...addresses.map((a) => a.address)]],
    );
    // The event log and the audit log refuse updates except to an erasure, in this transaction only.
    await tx.query("SELECT set_config('herald.allow_erase', 'on', true)");
    // Lock the user's notifications first: the dispatcher only writes rows still pending, so
    // once these are canceled no claim, attempt or send can touch them again.
    await tx.query("SELECT id FROM herald.notifications WHERE user_id = $1 ORDER BY id FOR UPDATE", [user.id]);
    const { rows: canceled } = await tx.query<{ n: number }>(
      `WITH canceled AS (
         UPDATE herald.notifications SET status = 'canceled', reason = 'user_erased', dispatch_state = 'done',
                job_queued_at = NULL, in_flight_job = NULL, updated_at = now()
          WHERE user_id = $1 AND status = 'pending'
         RETURNING id
       ), logged AS (
         INSERT INTO herald.notification_events (notification_id, type, detail)
         SELECT id, 'canceled', jsonb_build_object('reason', 'user_erased') FROM canceled
       )
       SELECT count(*)::int AS n FROM canceled`,
      [user.id],
    );
    const notificationEventsScrubbed = await count(
      `UPDATE herald.notification_events e SET detail = herald.erase_values(e.detail::text, $2)::jsonb
         FROM herald.notifications n
        WHERE n.user_id = $1 AND e.notification_id = n.id AND herald.erase_values(e.detail::text, $2) <> e.detail::text`,
      [user.id, values],
    );
    const sandboxMessagesScrubbed = await count(
      `UPDATE herald.sandbox_messages m SET recipient = '[erased]', subject = NULL, title = NULL, body = '', headers = NULL, data = NULL
        WHERE m.recipient <> '[erased]'
          AND (m.notification_id IN (SELECT id FROM herald.notifications WHERE user_id = $1) OR m.recipient = ANY ($2::text[]))`,
      [user.id, values],
    );
    // Webhooks of their messages go blank (a provider's body carries the address), except those
    // still waiting to be applied: those, and any other webhook naming an address of theirs (an
    // orphan, say), have the address cut out and stay parseable.
    const webhookEventsScrubbed = await count(
      `WITH theirs AS (
         SELECT w.id FROM herald.webhook_events w
          WHERE w.provider_message_id IN (SELECT provider_message_id FROM herald.notifications WHERE user_id = $1 AND provider_message_id IS NOT NULL)
       )
       UPDATE herald.webhook_events w
          SET raw = CASE WHEN w.id IN (SELECT id FROM theirs) AND w.state <> 'pending' THEN '' ELSE herald.erase_values(w.raw, $2) END
        WHERE w.raw <> ''
          AND ((w.id IN (SELECT id FROM theirs) AND w.state <> 'pending') OR (w.state <> 'applied' OR w.id IN (SELECT id FROM theirs)) AND herald.erase_values(w.raw, $2) <> w.raw)`,
      [user.id, values],
    );
    const notificationsAnonymised = await count(
      `UPDATE herald.notifications SET address = NULL, rendered = NULL, vars = '{}'::jsonb, last_error = NULL,
              dedup_key = 'erased:' || id, user_id = NULL, event_ref = NULL, updated_at = now()
        WHERE user_id = $1`,
      [user.id],
    );
    const suppressionsHashed = await count(
      `WITH mine AS (
         SELECT s.* FROM herald.suppressions s
           JOIN jsonb_to_recordset($1::jsonb) AS a(channel text, address text)
             ON s.channel = a.channel AND s.address IN (a.address, lower(a.address))
       ), hashed AS (
         INSERT INTO herald.suppressions (channel, address, reason, source, detail, created_at)
         SELECT channel, herald.suppression_hash(channel, address), reason, source, '{"erased": true}'::jsonb, created_at FROM mine
         ON CONFLICT (channel, address) DO NOTHING
       )
       DELETE FROM herald.suppressions s USING mine WHERE s.channel = mine.channel AND s.address = mine.address`,
      [JSON.stringify(addresses)],
    );
    const importRowsDeleted = await count(
      `DELETE FROM herald.import_rows r
        WHERE jsonb_path_exists(r.fields, '$.** ? (@ == $id)', jsonb_build_object('id', $1::text))
           OR EXISTS (SELECT 1 FROM unnest($2::text[]) v WHERE strpos(lower(r.fields::text), lower(v)) > 0)`,
      [externalId, values],
    );
    const erasedRef = `erased-user:${user.id}`;
    const auditEntriesScrubbed = await count(
      `UPDATE herald.audit_log SET target = CASE WHEN target = $1 THEN $2 ELSE herald.erase_values(target, $3) END,
              detail = herald.erase_values((CASE WHEN target = $1 THEN detail - 'reason' ELSE detail END)::text, $3)::jsonb
        WHERE target = $1 OR herald.erase_values(detail::text, $3) <> detail::text OR herald.erase_values(target, $3) <> target`,
      [`user:${externalId}`, erasedRef, values],
    );
    const deleted = async (table: string) => count(`DELETE FROM herald.${table} WHERE user_id = $1`, [user.id]);
    const devicesDeleted = await deleted("devices");
    const preferencesDeleted = await deleted("preferences");
    const quietHoursDeleted = await deleted("quiet_hours");
    const activitiesDeleted = await deleted("activities");
    // Recounted by the activities trigger already; deleted here too so no summary can outlive them.
    await deleted("activity_summaries");
    const eventsDeleted = await deleted("events");
    const broadcastHoldoutsDeleted = await deleted("broadcast_holdouts");
    await tx.query("DELETE FROM herald.users WHERE id = $1", [user.id]);

    const summary: ErasureSummary = {
      erasedRef,
      notificationsAnonymised,
      notificationsCanceled: canceled[0]!.n,
      notificationEventsScrubbed,
      suppressionsHashed,
      sandboxMessagesScrubbed,
      webhookEventsScrubbed,
      importRowsDeleted,
      auditEntriesScrubbed,
      devicesDeleted,
      preferencesDeleted,
      quietHoursDeleted,
      activitiesDeleted,
      eventsDeleted,
      broadcastHoldoutsDeleted,
    };
    const { erasedRef: _ref, ...counts } = summary;
    await tx.query(
      `INSERT INTO herald.audit_log (actor_member_id, actor, action, target, detail, ip) VALUES ($1, $2, 'users.erase', $3, $4, $5)`,
      [by.memberId, by.actor, erasedRef, JSON.stringify(counts), by.ip ?? null],
    );
    return summary;
  });
}
