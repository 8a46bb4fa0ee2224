import { applyStatusEvents, enqueueJob, loadPendingWebhookEvents, markWebhookEvents, withTransaction, type StatusEvent } from "@herald/db";
import type pg from "pg";
import type { Task } from "graphile-worker";
import { z } from "zod";

/** Turns one verified raw webhook body into status events (empty: nothing to apply). */
export type WebhookParser = (raw: string) => StatusEvent[];

/** How long a webhook for an unknown message keeps being retried before it is an orphan. */
const ORPHAN_GRACE_MS = 5 * 60_000;

const PayloadSchema = z.object({ ids: z.array(z.string().regex(/^\d{1,18}$/)).min(1).max(1000) });

/**
 * Applies webhooks the endpoints recorded (verified, deduplicated) off the request path: a slow
 * database never makes a provider time out, and a failure retries as a job. A job's webhooks are
 * applied together (one statement per round of events, not one per webhook: the intake records
 * a flood in groups of hundreds) and in one transaction, so a retried job never logs an event
 * twice. Events for unknown messages are kept as orphans.
 */
export function applyWebhookEventsTask(pool: pg.Pool, parsers: Readonly<Record<string, WebhookParser>>): Task {
  return async (payload, helpers) => {
    const parsed = PayloadSchema.safeParse(payload);
    if (!parsed.success) {
      helpers.logger.error(`apply_webhook_events: malformed payload dropped: ${parsed.error.message}`);
      return;
    }
    await withTransaction(pool, async (tx) => {
      const rows = await loadPendingWebhookEvents(tx, parsed.data.ids, ORPHAN_GRACE_MS);
      const parsedRows = rows.map((row) => ({ row, events: parsers[row.provider]?.(row.raw) ?? [] }));
      // Rows come oldest first, so each message's events keep the order they arrived in.
      const orphans = new Set(await applyStatusEvents(tx, parsedRows.flatMap((r) => r.events)));
      const applied: string[] = [];
      const ignored: string[] = [];
      const orphaned: string[] = [];
      const waiting: string[] = [];
      for (const { row, events } of parsedRows) {
        if (events.length === 0) ignored.push(row.id);
        else if (events.some((e) => !orphans.has(e.providerMessageId))) applied.push(row.id);
        // A callback can beat the commit of the send it reports on: look again before calling it an orphan.
        else (row.fresh ? waiting : orphaned).push(row.id);
      }
      await markWebhookEvents(tx, applied, "applied");
      await markWebhookEvents(tx, ignored, "ignored");
      await markWebhookEvents(tx, orphaned, "orphan");
      if (waiting.length > 0) await enqueueJob(tx, "apply_webhook_events", { ids: waiting }, { delayMs: 30_000 });
    });
  };
}
