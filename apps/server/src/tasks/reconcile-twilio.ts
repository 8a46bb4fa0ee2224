import { enqueueJob, listOverdueTwilioMessages, markWebhookEvents, recordWebhookEvent, withTransaction, type Sql } from "@herald/db";
import type { Task } from "graphile-worker";
import type pg from "pg";
import { z } from "zod";
import { createTwilioClient, type TwilioClientConfig } from "../providers/twilio/twilio-client.ts";
import { twilioStatusEvents } from "../providers/twilio/twilio-status-events.ts";

/** A message's status as Twilio's Messages API reports it now. */
export type TwilioStatusFetch = (sid: string) => Promise<{ status: string; errorCode: string | null }>;

/** `GET /2010-04-01/Accounts/<SID>/Messages/<sid>.json`: one request, no SDK retries. */
export function twilioStatusFetcher(config: TwilioClientConfig): TwilioStatusFetch {
  const client = createTwilioClient(config);
  return async (sid) => {
    const message = await client.messages(sid).fetch();
    return { status: message.status, errorCode: message.errorCode == null ? null : String(message.errorCode) };
  };
}

export interface ReconcileTwilioOptions {
  /** Only messages sent at least this long ago (their callback is overdue). Default 1 h. */
  olderThanMs?: number;
  /** Not messages sent longer ago than this (Twilio will not change them now). Default 72 h. */
  maxAgeMs?: number;
  /** Messages looked up per run. */
  limit?: number;
  /** Lookups in flight at once. */
  concurrency?: number;
}

const PayloadSchema = z
  .object({
    olderThanSeconds: z.number().int().min(60).max(7 * 86_400).optional(),
    limit: z.number().int().min(1).max(10_000).optional(),
  })
  .default({});

/**
 * Twilio sends each status callback once and never retries it: a callback lost to an outage of
 * ours leaves a message `sent` for good. This task asks Twilio for the status of overdue messages
 * and feeds the answers through the webhook's own path (recorded in `herald.webhook_events` as
 * `${sid}:${status}:reconciled`, applied by `apply_webhook_events`).
 */
export function reconcileTwilioTask(sql: pg.Pool, fetchStatus: TwilioStatusFetch, options: ReconcileTwilioOptions = {}): Task {
  const olderThanMs = options.olderThanMs ?? 3_600_000;
  const maxAgeMs = options.maxAgeMs ?? 72 * 3_600_000;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  return async (payload, helpers) => {
    const parsed = PayloadSchema.safeParse(payload ?? {});
    if (!parsed.success) {
      helpers.logger.error(`reconcile_twilio: malformed payload dropped: ${parsed.error.message}`);
      return;
    }
    const age = parsed.data.olderThanSeconds === undefined ? olderThanMs : parsed.data.olderThanSeconds * 1000;
    const limit = parsed.data.limit ?? options.limit ?? 500;
    const sids = await listOverdueTwilioMessages(sql, age, maxAgeMs, limit);
    if (sids.length === 0) return;

    const answers: Array<{ sid: string; status: string; errorCode: string | null }> = [];
    let failures = 0;
    let next = 0;
    const lane = async () => {
      while (next < sids.length) {
        const sid = sids[next++]!;
        try {
          answers.push({ sid, ...(await fetchStatus(sid)) });
        } catch (error) {
          failures += 1;
          // Left for the next run (until maxAge): Twilio or the network may be down now.
          helpers.logger.warn(`reconcile_twilio: looking up ${sid} failed: ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, sids.length) }, lane));

    const queued = await recordAnswers(sql, answers);
    helpers.logger.info(`reconcile_twilio: ${sids.length} overdue, ${answers.length} looked up, ${queued} to apply, ${failures} failed`);
  };
}

/** Records the answers like callbacks, and queues the ones that change something, in one transaction. */
async function recordAnswers(pool: pg.Pool, answers: ReadonlyArray<{ sid: string; status: string; errorCode: string | null }>): Promise<number> {
  return withTransaction(pool, async (tx: Sql) => {
    const toApply: string[] = [];
    const ignored: string[] = [];
    for (const { sid, status, errorCode } of answers) {
      const raw = new URLSearchParams({ MessageSid: sid, MessageStatus: status, ...(errorCode ? { ErrorCode: errorCode } : {}), HeraldReconciled: "true" }).toString();
      const row = await recordWebhookEvent(tx, { provider: "twilio", eventKey: `${sid}:${status}:reconciled`, kind: status, providerMessageId: sid, raw });
      if (!row) continue;
      (twilioStatusEvents(raw).length > 0 ? toApply : ignored).push(row.id);
    }
    await markWebhookEvents(tx, ignored, "ignored");
    // apply_webhook_events takes at most 1,000 ids per job.
    for (let i = 0; i < toApply.length; i += 1000) {
      await enqueueJob(tx, "apply_webhook_events", { ids: toApply.slice(i, i + 1000) });
    }
    return toApply.length;
  });
}
