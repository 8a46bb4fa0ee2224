import { applyStatusEvents, enqueueJob, loadPendingWebhookEvents, markWebhookEvents, type Sql, type StatusEvent } from "@herald/db";
import type { Task } from "graphile-worker";
import { z } from "zod";

/** Turns one verified raw webhook body into status events (empty: nothing to apply). */
export type WebhookParser = (raw: string) => StatusEvent[];

/** How long a webhook for an unknown message keeps being retried before it is an orphan. */
const ORPHAN_GRACE_MS = 5 * 60_000;

const PayloadSchema = z.object({ ids: z.array(z.string().regex(/^\d{1,18}$/)).min(1).max(1000) });

/**
 * Applies webhooks the endpoints recorded (verified, deduplicated) off the request path: a slow
 * database never makes a provider time out, and a failure retries as a job. Events for unknown
 * messages are kept as orphans.
 */
export function applyWebhookEventsTask(sql: Sql, parsers: Readonly<Record<string, WebhookParser>>): Task {
  return async (payload, helpers) => {
    const parsed = PayloadSchema.safeParse(payload);
    if (!parsed.success) {
      helpers.logger.error(`apply_webhook_events: malformed payload dropped: ${parsed.error.message}`);
      return;
    }
    const rows = await loadPendingWebhookEvents(sql, parsed.data.ids, ORPHAN_GRACE_MS);
    const applied: string[] = [];
    const ignored: string[] = [];
    const orphaned: string[] = [];
    const waiting: string[] = [];
    for (const row of rows) {
      const parser = parsers[row.provider];
      const events = parser ? parser(row.raw) : [];
      if (events.length === 0) {
        ignored.push(row.id);
        continue;
      }
      const orphans = await applyStatusEvents(sql, events);
      if (orphans.length < events.length) applied.push(row.id);
      // A callback can beat the commit of the send it reports on: look again before calling it an orphan.
      else (row.fresh ? waiting : orphaned).push(row.id);
    }
    await markWebhookEvents(sql, applied, "applied");
    await markWebhookEvents(sql, ignored, "ignored");
    await markWebhookEvents(sql, orphaned, "orphan");
    if (waiting.length > 0) {
      await enqueueJob(sql, "apply_webhook_events", { ids: waiting }, { delayMs: 30_000 });
    }
  };
}
