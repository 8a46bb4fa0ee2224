import type pg from "pg";
import { withTransaction } from "../sql.ts";

/** The append-only tables retention prunes, in the order it walks them. */
export const PRUNED_TABLES = ["notifications", "sandbox_messages", "webhook_events", "events"] as const;
export type PrunedTable = (typeof PRUNED_TABLES)[number];

export interface PruneOptions {
  /** Rows created (received) before this instant are expired. */
  olderThan: Date;
  /** Ids looked at per batch; each batch is one statement, so one short transaction. */
  batchSize: number;
  /** The run stops after the batch that crosses this budget; the next run goes on. */
  budgetMs: number;
  /** Stops the run between two batches (shutdown). */
  signal?: AbortSignal;
  clock?: () => number;
}

export interface PruneReport {
  deleted: Record<PrunedTable, number>;
  batches: number;
  /** Expired notifications kept because the analytics rollup has not counted their events yet. */
  heldForRollup: number;
  /** False when the budget or the signal ended the run before every table was walked. */
  finished: boolean;
}

interface BatchResult {
  lastId: string | null;
  expiredInWindow: number;
  deleted: number;
  held: number;
}

// One statement per batch: the next `batchSize` ids after the cursor (a primary-key range scan),
// and of those the expired ones that may go. A window with nothing expired in it means the walk
// has reached rows younger than the cutoff (ids grow with time), so the table is done.
const WINDOW = (table: string, timeColumn: string) =>
  `win AS (SELECT id, ${timeColumn} < $3 AS expired FROM herald.${table} WHERE id > $1::bigint ORDER BY id LIMIT $2)`;

const RESULT = `SELECT (SELECT max(id)::text FROM win) AS last_id, (SELECT count(*)::int FROM win WHERE expired) AS expired_in_window,
                       (SELECT count(*)::int FROM gone) AS deleted`;

const BATCH_SQL: Record<PrunedTable, string> = {
  // A notification goes only once it is settled and the rollup has read every event of it: no
  // event past analytics_state's mark, none among the ids it passed over (analytics_gaps), and
  // none at all while no rollup position is recorded. Its events go with it (ON DELETE CASCADE).
  notifications: `WITH ${WINDOW("notifications", "created_at")},
    mark AS (SELECT last_event_id FROM herald.analytics_state WHERE id = 1 AND built_at IS NOT NULL),
    candidates AS (
      SELECT w.id FROM win w JOIN herald.notifications n ON n.id = w.id WHERE w.expired AND n.dispatch_state = 'done'
    ), doomed AS (
      SELECT c.id FROM candidates c, mark
       WHERE NOT EXISTS (SELECT 1 FROM herald.notification_events e
                          WHERE e.notification_id = c.id
                            AND (e.id > mark.last_event_id OR e.id IN (SELECT g.event_id FROM herald.analytics_gaps g)))
    ), gone AS (DELETE FROM herald.notifications n USING doomed d WHERE n.id = d.id RETURNING n.id)
    ${RESULT}, (SELECT count(*)::int FROM candidates) - (SELECT count(*)::int FROM gone) AS held`,
  sandbox_messages: `WITH ${WINDOW("sandbox_messages", "created_at")},
    gone AS (DELETE FROM herald.sandbox_messages m USING win w WHERE m.id = w.id AND w.expired RETURNING m.id)
    ${RESULT}, 0 AS held`,
  // A webhook still waiting to be applied stays, however old.
  webhook_events: `WITH ${WINDOW("webhook_events", "received_at")},
    gone AS (DELETE FROM herald.webhook_events x USING win w WHERE x.id = w.id AND w.expired AND x.state <> 'pending' RETURNING x.id)
    ${RESULT}, 0 AS held`,
  // A received event stays while a notification still points at it.
  events: `WITH ${WINDOW("events", "received_at")},
    gone AS (DELETE FROM herald.events ev USING win w WHERE ev.id = w.id AND w.expired
               AND NOT EXISTS (SELECT 1 FROM herald.notifications n WHERE n.event_ref = ev.id) RETURNING ev.id)
    ${RESULT}, 0 AS held`,
};

async function pruneBatch(pool: pg.Pool, table: PrunedTable, afterId: string, options: PruneOptions): Promise<BatchResult> {
  const r = await withTransaction(pool, async (tx) => {
    // notification_events refuses deletes except to retention, in this transaction only.
    await tx.query("SELECT set_config('herald.allow_prune', 'on', true)");
    const { rows } = await tx.query<{ last_id: string | null; expired_in_window: number; deleted: number; held: number }>(
      BATCH_SQL[table],
      [afterId, options.batchSize, options.olderThan],
    );
    return rows[0]!;
  });
  return { lastId: r.last_id, expiredInWindow: r.expired_in_window, deleted: r.deleted, held: r.held };
}

/**
 * Deletes expired rows from each table of PRUNED_TABLES in batches of ids, each batch its own
 * short transaction, until every table is walked or the budget is spent. Interrupted at any
 * point, it leaves only whole batches done; the next run walks again from the oldest id.
 */
export async function pruneExpired(pool: pg.Pool, options: PruneOptions): Promise<PruneReport> {
  const clock = options.clock ?? Date.now;
  const started = clock();
  const report: PruneReport = {
    deleted: { notifications: 0, sandbox_messages: 0, webhook_events: 0, events: 0 },
    batches: 0,
    heldForRollup: 0,
    finished: false,
  };
  const outOfTime = () => options.signal?.aborted === true || clock() - started >= options.budgetMs;
  for (const table of PRUNED_TABLES) {
    let cursor = "0";
    for (;;) {
      if (outOfTime()) return report;
      const batch = await pruneBatch(pool, table, cursor, options);
      report.batches += 1;
      report.deleted[table] += batch.deleted;
      report.heldForRollup += batch.held;
      if (batch.lastId === null || batch.expiredInWindow === 0) break;
      cursor = batch.lastId;
    }
  }
  report.finished = true;
  return report;
}
