import type { AlertCondition, AlertMeasures } from "@herald/core";
import type { Sql } from "../sql.ts";
import { listBacklog } from "./backlog.ts";

/** A raised alert, open while resolvedAt is null. */
export interface AlertRecord {
  id: string;
  kind: string;
  subject: string;
  message: string;
  value: number;
  threshold: number;
  raisedAt: Date;
  resolvedAt: Date | null;
}

const COLUMNS = "id::text, kind, subject, message, value, threshold, raised_at, resolved_at";

function toAlert(r: Record<string, unknown>): AlertRecord {
  return {
    id: r.id as string,
    kind: r.kind as string,
    subject: r.subject as string,
    message: r.message as string,
    value: r.value as number,
    threshold: r.threshold as number,
    raisedAt: r.raised_at as Date,
    resolvedAt: (r.resolved_at as Date | null) ?? null,
  };
}

// Dead letters are counted along notifications_dead_idx (partial: only dead rows); the email
// rates come from the daily rollups (analytics_daily, primary key led by day) over the last 7
// days by send day, as email providers judge a sender; the backlog is the Delivery page's query.
/** Everything the alert conditions look at, read set-based from indexes and rollups. */
export async function measureAlerts(sql: Sql): Promise<AlertMeasures> {
  const [dead, breakers, email, backlog] = await Promise.all([
    sql.query("SELECT count(*) AS n FROM herald.notifications WHERE status = 'dead'"),
    sql.query("SELECT breaker_key, opened_at FROM herald.provider_breakers WHERE state = 'open' AND opened_at IS NOT NULL ORDER BY breaker_key"),
    sql.query(
      `SELECT coalesce(sum(sent), 0) AS sent, coalesce(sum(bounced), 0) AS bounced, coalesce(sum(complained), 0) AS complained
         FROM herald.analytics_daily WHERE day > current_date - 7 AND channel = 'email'`,
    ),
    listBacklog(sql),
  ]);
  return {
    deadLetters: Number(dead.rows[0].n),
    openBreakers: breakers.rows.map((r) => ({ key: r.breaker_key, openedAt: r.opened_at })),
    email: { sent: Number(email.rows[0].sent), bounced: Number(email.rows[0].bounced), complained: Number(email.rows[0].complained) },
    backlog: backlog.map((b) => ({ channel: b.channel, lane: b.lane, oldestDueAt: b.oldestDueAt })),
  };
}

/**
 * Opens an alert for every condition that has none open (alerts_open_idx makes a second raise of
 * the same kind and subject a no-op, even from two evaluations at once) and resolves every open
 * alert whose condition no longer holds. Returns only what changed: each alert is announced once
 * when raised and once when resolved.
 */
export async function syncAlerts(sql: Sql, conditions: readonly AlertCondition[]): Promise<{ raised: AlertRecord[]; resolved: AlertRecord[] }> {
  const json = JSON.stringify(conditions);
  const raised = await sql.query(
    `INSERT INTO herald.alerts (kind, subject, message, value, threshold)
     SELECT kind, subject, message, value, threshold
       FROM jsonb_to_recordset($1::jsonb) AS c(kind text, subject text, message text, value float8, threshold float8)
     ON CONFLICT (kind, subject) WHERE resolved_at IS NULL DO NOTHING
     RETURNING ${COLUMNS}`,
    [json],
  );
  const resolved = await sql.query(
    `UPDATE herald.alerts a SET resolved_at = now()
      WHERE a.resolved_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM jsonb_to_recordset($1::jsonb) AS c(kind text, subject text) WHERE c.kind = a.kind AND c.subject = a.subject)
     RETURNING ${COLUMNS}`,
    [json],
  );
  return { raised: raised.rows.map(toAlert), resolved: resolved.rows.map(toAlert) };
}

export async function findAlert(sql: Sql, id: string): Promise<AlertRecord | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM herald.alerts WHERE id = $1`, [id]);
  return rows[0] ? toAlert(rows[0]) : null;
}

/** The alerts open now, oldest first (alerts_open_idx). */
export async function listOpenAlerts(sql: Sql): Promise<AlertRecord[]> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM herald.alerts WHERE resolved_at IS NULL ORDER BY raised_at, id`);
  return rows.map(toAlert);
}

/** Every alert, open or resolved, newest first, one keyset page at a time (alerts_raised_idx). */
export async function listAlerts(sql: Sql, options: { limit: number; cursor: string | null }): Promise<{ items: AlertRecord[]; nextCursor: string | null }> {
  const { rows } = await sql.query(
    `SELECT ${COLUMNS} FROM herald.alerts
      WHERE $1::bigint IS NULL OR (raised_at, id) < ((SELECT raised_at FROM herald.alerts WHERE id = $1), $1)
      ORDER BY raised_at DESC, id DESC LIMIT $2`,
    [options.cursor, options.limit + 1],
  );
  const items = rows.slice(0, options.limit).map(toAlert);
  return { items, nextCursor: rows.length > options.limit ? (items[items.length - 1]?.id ?? null) : null };
}

/** The alert webhook's sealed signing secret, if one was stored. */
export async function findAlertWebhookSecret(sql: Sql): Promise<Buffer | null> {
  const { rows } = await sql.query("SELECT secret_ciphertext FROM herald.alert_webhook_secret WHERE id = 1");
  return rows[0]?.secret_ciphertext ?? null;
}

export async function storeAlertWebhookSecret(sql: Sql, sealed: Buffer): Promise<void> {
  await sql.query(
    `INSERT INTO herald.alert_webhook_secret (id, secret_ciphertext) VALUES (1, $1)
     ON CONFLICT (id) DO UPDATE SET secret_ciphertext = EXCLUDED.secret_ciphertext, updated_at = now()`,
    [sealed],
  );
}
