import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import { sesEventKind, sesEventOf } from "../../providers/ses/ses-status-events.ts";
import { recordWebhook } from "../../operations/process-metrics.ts";
import type { AppServices } from "../../trpc/context.ts";
import { sendError } from "../rest-errors.ts";
import { createWebhookIntake, webhookAdmission, type WebhookIntake } from "./webhook-intake.ts";
import { createSnsVerifier, httpsGet, snsUrl, SnsEnvelopeSchema, type FetchCertificate, type SnsRejection } from "./sns-verifier.ts";

export interface SesWebhookOptions {
  fetchCertificate?: FetchCertificate;
  /** Visits a (verified, SNS-hosted) SubscribeURL to confirm the subscription. */
  confirmSubscription?: (url: string) => Promise<void>;
  /** Records the webhooks (shared with Twilio's route, so a flood of both is written together). */
  intake?: WebhookIntake;
  /** Requests in flight beyond which SNS is answered 503 at once (it retries). */
  maxInFlight?: number;
}

/**
 * SNS requests one process holds at once. They wait for the intake's group write, not for a pool
 * connection each, so this bounds sockets and memory (bodies are a few KiB): past it a flood is
 * answered 503 at once, which SNS retries, instead of piling up until every request times out.
 */
export const MAX_SNS_IN_FLIGHT = 512;

/** SNS's body is a few KiB; SES caps the headers it copies into `mail.headers`. */
const BODY_LIMIT = "256kb";

// A forgery (403) or trouble fetching AWS's certificate (503: SNS retries).
const REJECTION_STATUS: Readonly<Record<SnsRejection, 403 | 503>> = {
  unsupported_signature_version: 403,
  signing_cert_url_not_sns: 403,
  subscribe_url_not_sns: 403,
  stale: 403,
  from_the_future: 403,
  bad_certificate: 403,
  bad_signature: 403,
  certificate_unavailable: 503,
};

/** Visits a SubscribeURL (SNS hosts only, no redirects): SNS then starts delivering. */
export async function confirmSnsSubscription(url: string): Promise<void> {
  if (!snsUrl(url, "subscribe")) throw new Error(`${url} is not an SNS URL`);
  await httpsGet(url, { timeoutMs: 10_000, maxBytes: 64 * 1024 });
}

/** Parses `HERALD_SES_SNS_TOPIC_ARNS` (comma-separated). */
export function sesTopicArns(value: string | undefined): Set<string> {
  return new Set((value ?? "").split(",").map((arn) => arn.trim()).filter(Boolean));
}

/**
 * `POST /webhooks/ses`: SES events through SNS. The raw body is verified (topic allow-list, then
 * SNS's signature) before anything is believed, recorded once per SNS MessageId, and applied by
 * the `apply_webhook_events` job, so the answer never waits on status updates. Off (404) unless
 * `HERALD_SES_SNS_TOPIC_ARNS` is set.
 */
export function sesWebhookRoutes(services: Pick<AppServices, "database" | "env" | "log">, options: SesWebhookOptions = {}): Router {
  const { log, database } = services;
  const topics = sesTopicArns(services.env.HERALD_SES_SNS_TOPIC_ARNS);
  const verify = createSnsVerifier(options.fetchCertificate ? { fetchCertificate: options.fetchCertificate } : {});
  const confirmSubscription = options.confirmSubscription ?? confirmSnsSubscription;
  const intake = options.intake ?? createWebhookIntake(database.pool);
  const router = Router();

  const reject = (res: Response, status: number, reason: string, context: Record<string, unknown> = {}) => {
    log.warn({ webhook: "ses", reason, ...context }, "ses webhook rejected");
    if (status === 503) res.setHeader("Retry-After", "30");
    const code = status === 400 ? "invalid_request" : status === 403 ? "forbidden" : "unavailable";
    sendError(res, status, code, `Rejected: ${reason}`);
  };

  // The body parser's own refusals (413, bad charset) are logged here, answered by the shared handler.
  const logBodyErrors: ErrorRequestHandler = (error, _req, _res, next) => {
    const e = error as { type?: string; status?: number };
    log.warn({ webhook: "ses", reason: e.type ?? "unreadable_body", status: e.status }, "ses webhook rejected");
    next(error);
  };

  // Off before the body is even read.
  const whenConfigured: RequestHandler = (_req, res, next) =>
    topics.size === 0 ? sendError(res, 404, "not_found", "The SES webhook is off: set HERALD_SES_SNS_TOPIC_ARNS") : next();

  router.post(
    "/webhooks/ses",
    whenConfigured,
    webhookAdmission("ses", options.maxInFlight ?? MAX_SNS_IN_FLIGHT, log),
    express.text({ type: "*/*", limit: BODY_LIMIT }),
    logBodyErrors,
    async (req: Request, res: Response) => {
      if (typeof req.body !== "string") return reject(res, 400, "no_body");
      let json: unknown;
      try {
        json = JSON.parse(req.body);
      } catch {
        return reject(res, 400, "malformed_json");
      }
      const parsed = SnsEnvelopeSchema.safeParse(json);
      if (!parsed.success) return reject(res, 400, "not_an_sns_envelope", { issue: parsed.error.issues[0]?.path.join(".") });
      const envelope = parsed.data;
      const context = { type: envelope.Type, messageId: envelope.MessageId, topicArn: envelope.TopicArn };
      if (!topics.has(envelope.TopicArn)) return reject(res, 403, "topic_not_allowed", context);
      const verification = await verify(envelope);
      if (!verification.ok) return reject(res, REJECTION_STATUS[verification.reason], verification.reason, context);

      switch (envelope.Type) {
        case "SubscriptionConfirmation":
          await confirmSubscription(envelope.SubscribeURL);
          log.info(context, "ses webhook: SNS subscription confirmed");
          return res.status(200).end();
        case "UnsubscribeConfirmation":
          log.warn(context, "ses webhook: SNS unsubscribed this endpoint from the topic");
          return res.status(200).end();
        case "Notification": {
          const event = sesEventOf(req.body);
          if (!event) {
            // Genuine (signed, allowed topic) but not SES's: a console test message, say.
            log.warn(context, "ses webhook: notification carries no SES event; ignored");
            return res.status(200).end();
          }
          // Recorded and queued together: a row with no job would be pending forever, as SNS's
          // retry would then be answered as a duplicate.
          const recorded = await intake.record({
            provider: "ses",
            eventKey: envelope.MessageId,
            kind: sesEventKind(event),
            providerMessageId: event.mail.messageId,
            raw: req.body,
            apply: true,
          });
          if (recorded) recordWebhook("ses", sesEventKind(event));
          else log.debug(context, "ses webhook: duplicate delivery ignored");
          return res.status(200).end();
        }
      }
    },
  );
  return router;
}
