import { findAlert, type Sql } from "@herald/db";
import type { Task } from "graphile-worker";
import { z } from "zod";
import type { Env } from "../env.ts";
import { alertWebhookTarget } from "../operations/alert-settings.ts";
import { deliverAlertWebhook } from "../operations/alert-webhook.ts";
import type { SettingsCache } from "../settings/settings-service.ts";

const PayloadSchema = z.object({ alertId: z.string().regex(/^\d{1,18}$/), event: z.enum(["raised", "resolved"]) });

/**
 * POSTs one raised or resolved alert to the configured webhook. A failed POST throws, so
 * graphile-worker retries it with its exponential back-off; a refused target (a private address)
 * or a missing secret is logged and dropped, as retrying cannot fix it.
 */
export function deliverAlertTask(sql: Sql, settings: SettingsCache, env: Env): Task {
  return async (payload, helpers) => {
    const parsed = PayloadSchema.safeParse(payload);
    if (!parsed.success) {
      helpers.logger.error(`deliver_alert: malformed payload dropped: ${parsed.error.message}`);
      return;
    }
    const alert = await findAlert(sql, parsed.data.alertId);
    if (!alert) return;
    const webhook = await alertWebhookTarget(sql, await settings.get(), env);
    if (webhook.kind === "off") return;
    if (webhook.kind === "unsigned") {
      helpers.logger.error(`deliver_alert: alert ${alert.id} not sent: ${webhook.reason}`);
      return;
    }
    const delivery = await deliverAlertWebhook(webhook.target, parsed.data.event, alert);
    if (delivery.kind === "refused") {
      helpers.logger.error(`deliver_alert: alert ${alert.id} not sent: the webhook URL is refused (${delivery.reason})`);
      return;
    }
    if (delivery.kind === "failed") throw new Error(`alert webhook ${delivery.reason}`);
  };
}
