import { recordAndQueueWebhookEvents, type Sql, type WebhookToRecord } from "@herald/db";
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { recordWebhookRefused } from "../../operations/process-metrics.ts";
import { admission } from "../admission.ts";
import { isDatabaseUnavailable, sendError } from "../rest-errors.ts";

/** Webhooks one write records at most (each row is a few KiB of raw body). */
const MAX_GROUP = 500;

export interface WebhookIntake {
  /**
   * Resolves once the webhook is committed, with its row's id, or null when the provider had
   * already delivered it; a provider is answered 2xx only after that.
   */
  record(event: WebhookToRecord): Promise<{ id: string } | null>;
}

interface Waiting {
  event: WebhookToRecord;
  resolve: (row: { id: string } | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Records webhooks a group at a time (a group commit): each webhook is queued as it arrives and
 * written with whatever else arrived meanwhile, one write at a time, so a flood costs one
 * statement, one commit and one apply job per group instead of per webhook, and holds one pool
 * connection instead of one per request. A lone webhook is written at once: no timer, no added
 * latency when traffic is light.
 */
export function createWebhookIntake(sql: Sql, maxGroup = MAX_GROUP): WebhookIntake {
  const waiting: Waiting[] = [];
  let writing = false;

  const settle = (group: Waiting[], ids: (string | null)[]) =>
    group.forEach((w, i) => w.resolve(ids[i] ? { id: ids[i] } : null));

  const write = async (): Promise<void> => {
    if (writing || waiting.length === 0) return;
    writing = true;
    const group = waiting.splice(0, maxGroup);
    try {
      settle(group, await recordAndQueueWebhookEvents(sql, group.map((w) => w.event)));
    } catch (error) {
      // One row Postgres refuses must not fail the webhooks that shared its statement: they are
      // written one by one. An outage fails them all at once (each is answered 503).
      if (group.length === 1 || isDatabaseUnavailable(error)) group.forEach((w) => w.reject(error));
      else await writeOneByOne(group);
    } finally {
      writing = false;
      void write();
    }
  };

  const writeOneByOne = async (group: Waiting[]) => {
    for (const w of group) {
      try {
        settle([w], await recordAndQueueWebhookEvents(sql, [w.event]));
      } catch (error) {
        w.reject(error);
      }
    }
  };

  return {
    record: (event) =>
      new Promise((resolve, reject) => {
        waiting.push({ event, resolve, reject });
        void write();
      }),
  };
}

/** How often a flood's refusals are logged (each is counted in herald_webhooks_refused_total). */
const REFUSAL_LOG_INTERVAL_MS = 10_000;

/**
 * Beyond `limit` requests in flight, a webhook is answered 503 with Retry-After at once, before
 * its body is read: a prompt refusal the provider can retry, where a request left to wait would
 * hold its socket until it timed out. Logged once per interval with the count, not per request,
 * so a flood does not become a flood of log lines.
 */
export function webhookAdmission(provider: "ses" | "twilio", limit: number, log: Logger): RequestHandler {
  let refused = 0;
  let loggedAt = 0;
  return admission(limit, (res) => {
    recordWebhookRefused(provider);
    refused++;
    if (Date.now() - loggedAt >= REFUSAL_LOG_INTERVAL_MS) {
      log.warn({ webhook: provider, reason: "overloaded", refused, inFlightLimit: limit }, `${provider} webhooks refused: ${limit} already in flight`);
      loggedAt = Date.now();
      refused = 0;
    }
    res.setHeader("Retry-After", "5");
    sendError(res, 503, "unavailable", "Herald is recording as many webhooks as it can take; try again shortly");
  });
}
