import type pg from "pg";
import { withTransaction, type Sql } from "../sql.ts";

/** What makes a workspace "not empty" for `pnpm demo`: anything a person or an app put there. */
export interface WorkspaceContent {
  users: number;
  notifications: number;
  templates: number;
  broadcasts: number;
}

export async function countWorkspaceContent(sql: Sql): Promise<WorkspaceContent> {
  const { rows } = await sql.query(
    `SELECT (SELECT count(*) FROM herald.users)::int AS users, (SELECT count(*) FROM herald.notifications)::int AS notifications,
            (SELECT count(*) FROM herald.templates)::int AS templates, (SELECT count(*) FROM herald.broadcasts)::int AS broadcasts`,
  );
  return rows[0];
}

/**
 * The workspace's content, emptied by `pnpm demo --reset`. Members, API keys, settings, provider
 * configuration and the audit log stay: they are who runs Herald, not what it holds.
 */
const CONTENT_TABLES = [
  "users", "devices", "preferences", "quiet_hours", "suppressions", "events", "notifications", "notification_events",
  "activities", "activity_summaries", "categories", "category_aliases", "notification_types", "sandbox_messages",
  "webhook_events", "templates", "template_versions", "segments", "segment_dependencies", "imports", "import_rows",
  "broadcasts", "broadcast_holdouts", "analytics_daily", "analytics_daily_skips", "analytics_gaps", "alerts",
] as const;

/**
 * Empties the content tables in one transaction. TRUNCATE, not DELETE: the event log's
 * append-only trigger guards rows, and a reset is the one place a whole log goes at once.
 * The caller rebuilds the analytics state afterwards (an empty log).
 */
export async function resetWorkspaceContent(pool: pg.Pool): Promise<void> {
  await withTransaction(pool, async (tx) => {
    await tx.query(`TRUNCATE ${CONTENT_TABLES.map((t) => `herald.${t}`).join(", ")} RESTART IDENTITY CASCADE`);
  });
}

/**
 * Sets this connection's herald.clock (decision 0017): rows it writes from now on are stamped
 * as of `at`; null gives it back the real clock.
 */
export async function setSessionClock(sql: Sql, at: Date | null): Promise<void> {
  await sql.query("SELECT set_config('herald.clock', $1, false)", [at ? at.toISOString() : ""]);
}

/** Worker processes that said they were alive within `withinMs`: a running server. */
export async function countLiveWorkers(sql: Sql, withinMs: number): Promise<number> {
  const { rows } = await sql.query(
    "SELECT count(*)::int AS n FROM herald.worker_heartbeats WHERE last_seen_at > now() - make_interval(secs => $1::float8 / 1000)",
    [withinMs],
  );
  return rows[0].n;
}

/** Pending notifications due by `by` (deferred past quiet hours, retries), per channel, oldest first. */
export async function listDueNotifications(sql: Sql, by: Date, limit: number): Promise<Array<{ id: string; channel: "push" | "email" | "sms"; dueAt: Date }>> {
  const { rows } = await sql.query(
    `SELECT id::text, channel, next_attempt_at AS due_at FROM herald.notifications
      WHERE status = 'pending' AND dispatch_state IN ('queued', 'retry_wait', 'deferred') AND next_attempt_at <= $1
      ORDER BY next_attempt_at, id LIMIT $2`,
    [by, limit],
  );
  return rows.map((r) => ({ id: r.id, channel: r.channel, dueAt: r.due_at }));
}

/** A broadcast's rows still waiting to be sent, in id order after `afterId`. */
export async function listPendingBroadcastNotifications(
  sql: Sql,
  broadcastId: string,
  afterId: string,
  limit: number,
): Promise<Array<{ id: string; channel: "push" | "email" | "sms"; templateVersion: number | null }>> {
  const { rows } = await sql.query(
    `SELECT id::text, channel, template_version AS "templateVersion" FROM herald.notifications
      WHERE broadcast_id = $1 AND status = 'pending' AND id > $2::bigint ORDER BY id LIMIT $3`,
    [broadcastId, afterId, limit],
  );
  return rows;
}
