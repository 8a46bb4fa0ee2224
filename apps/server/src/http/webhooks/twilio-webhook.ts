import { createHash } from "node:crypto";
import { liftSuppression, markWebhookEvents, recordWebhookEvent, suppressAddresses, withTransaction } from "@herald/db";
import express, { Router, type ErrorRequestHandler, type NextFunction, type Request, type Response } from "express";
import twilio from "twilio";
import { twilioWebhookUrl } from "../../providers/twilio/twilio-provider.ts";
import { twilioFormParams, twilioInboundCommand, twilioStatusCallback, twilioStatusEvents } from "../../providers/twilio/twilio-status-events.ts";
import { recordWebhook } from "../../operations/process-metrics.ts";
import type { AppServices } from "../../trpc/context.ts";
import { sendError } from "../rest-errors.ts";
import { createWebhookIntake, webhookAdmission, type WebhookIntake } from "./webhook-intake.ts";

export interface TwilioWebhookOptions {
  /**
   * Verifies `X-Twilio-Signature`; default HERALD_TWILIO_AUTH_TOKEN. A function is asked on every
   * request (Twilio accounts configured in the dashboard, a primary and a secondary): a signature
   * valid under any of its tokens is accepted. None: the webhook is off (404).
   */
  authToken?: string | (() => readonly string[]);
  /** Herald's public URL as Twilio reaches it; default HERALD_PUBLIC_URL. */
  publicUrl?: string;
  /** Records the status callbacks (shared with SES's route, so a flood of both is written together). */
  intake?: WebhookIntake;
  /** Requests in flight beyond which Twilio is answered 503 at once. */
  maxInFlight?: number;
}

/**
 * Twilio requests one process holds at once: four times SNS's, because Twilio does not retry a
 * refused status callback (by default), so a flood should wait its turn rather than be refused.
 * A callback refused all the same is not lost for good: `reconcile_twilio` looks up messages
 * left in "sent".
 */
export const MAX_TWILIO_IN_FLIGHT = 2048;

/** A status callback is well under 1 KiB; an inbound message's Body is at most 1,600 characters. */
const BODY_LIMIT = "64kb";
const FORM = "application/x-www-form-urlencoded";
/** An empty TwiML answer: "received", and no reply SMS. */
const EMPTY_TWIML = "<Response/>";

/**
 * `POST /webhooks/twilio`: message status callbacks and inbound SMS. The signature is checked
 * over the URL as configured (never rebuilt from Host or X-Forwarded-* headers, which a caller
 * controls) and over every posted parameter, known or not, before anything is believed. Status
 * callbacks are recorded once per `MessageSid:MessageStatus` and applied by `apply_webhook_events`,
 * so the answer never waits on status updates; STOP and START replies change the suppression list
 * at once. Off (404) without an auth token.
 */
export function twilioWebhookRoutes(services: Pick<AppServices, "database" | "env" | "log">, options: TwilioWebhookOptions = {}): Router {
  const { log, database } = services;
  const configured = options.authToken ?? services.env.HERALD_TWILIO_AUTH_TOKEN;
  const authTokens = typeof configured === "function" ? configured : () => (configured ? [configured] : []);
  const url = twilioWebhookUrl(options.publicUrl ?? services.env.publicUrl);
  const intake = options.intake ?? createWebhookIntake(database.pool);
  const router = Router();

  const reject = (res: Response, status: 403 | 415, reason: string) => {
    log.warn({ webhook: "twilio", reason }, "twilio webhook rejected");
    if (status === 415) return sendError(res, 415, "unsupported_media_type", `Send the body as ${FORM}`);
    return sendError(res, 403, "forbidden", `Rejected: ${reason}`);
  };
  const answer = (res: Response) => res.status(200).type("text/xml").send(EMPTY_TWIML);

  // The body parser's own refusals (413, bad charset) are logged here, answered by the shared handler.
  const logBodyErrors: ErrorRequestHandler = (error, _req, _res, next) => {
    const e = error as { type?: string; status?: number };
    log.warn({ webhook: "twilio", reason: e.type ?? "unreadable_body", status: e.status }, "twilio webhook rejected");
    next(error);
  };

  router.post(
    "/webhooks/twilio",
    (req: Request, res: Response, next: NextFunction) => {
      if (authTokens().length === 0) return sendError(res, 404, "not_found", "The Twilio webhook is off: set HERALD_TWILIO_AUTH_TOKEN");
      if (!req.is(FORM)) return reject(res, 415, "not_form_encoded");
      next();
    },
    webhookAdmission("twilio", options.maxInFlight ?? MAX_TWILIO_IN_FLIGHT, log),
    express.text({ type: FORM, limit: BODY_LIMIT }),
    logBodyErrors,
    async (req: Request, res: Response) => {
      const raw = typeof req.body === "string" ? req.body : "";
      const signature = req.header("X-Twilio-Signature");
      if (!signature) return reject(res, 403, "missing_signature");
      const params = twilioFormParams(raw);
      if (!authTokens().some((token) => twilio.validateRequest(token, signature, url, params))) return reject(res, 403, "bad_signature");

      const inbound = twilioInboundCommand(raw);
      if (inbound) {
        const eventKey = `${inbound.messageSid ?? createHash("sha256").update(raw).digest("hex")}:inbound`;
        await withTransaction(database.pool, async (tx) => {
          const row = await recordWebhookEvent(tx, { provider: "twilio", eventKey, kind: `inbound_${inbound.command}`, providerMessageId: null, raw });
          if (!row) return;
          recordWebhook("twilio", `inbound_${inbound.command}`);
          if (inbound.command === "stop") {
            await suppressAddresses(tx, [
              { channel: "sms", address: inbound.from, reason: "stop", source: "twilio", detail: { messageSid: inbound.messageSid } },
            ]);
          } else {
            await liftSuppression(tx, { channel: "sms", address: inbound.from, reason: "stop" });
          }
          await markWebhookEvents(tx, [row.id], "applied");
        });
        log.info({ webhook: "twilio", command: inbound.command, messageSid: inbound.messageSid }, "twilio webhook: inbound opt-out command applied");
        return answer(res);
      }

      const callback = twilioStatusCallback(raw);
      if (callback) {
        const events = twilioStatusEvents(raw);
        const context = { webhook: "twilio", messageSid: callback.messageSid, status: callback.status };
        // Recorded and queued together: a row with no job would stay pending for good. A status
        // that changes nothing (queued, sent, …) is kept as `ignored` and costs no job.
        const recorded = await intake.record({
          provider: "twilio",
          eventKey: `${callback.messageSid}:${callback.status}`,
          kind: callback.status,
          providerMessageId: callback.messageSid,
          raw,
          apply: events.length > 0,
        });
        if (recorded) recordWebhook("twilio", callback.status);
        else log.debug(context, "twilio webhook: duplicate callback ignored");
        return answer(res);
      }

      // Genuine but neither a status nor a command: an ordinary reply. Not Herald's to keep.
      log.debug({ webhook: "twilio" }, "twilio webhook: inbound message ignored");
      return answer(res);
    },
  );
  return router;
}
