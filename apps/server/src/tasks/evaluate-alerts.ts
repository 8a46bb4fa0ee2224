import { evaluateAlertConditions } from "@herald/core";
import { enqueueJob, measureAlerts, syncAlerts, withTransaction } from "@herald/db";
import type { Task } from "graphile-worker";
import type pg from "pg";
import { alertThresholds, alertWebhookUrl } from "../operations/alert-settings.ts";
import type { SettingsCache } from "../settings/settings-service.ts";

/**
 * Every minute: measure, compare with the thresholds, open alerts whose condition now holds and
 * resolve those whose condition cleared. Each change queues its webhook delivery in the same
 * transaction, so an alert is announced once — never lost, never repeated by the next tick.
 */
export function evaluateAlertsTask(pool: pg.Pool, settings: SettingsCache): Task {
  return async (_payload, helpers) => {
    const current = await settings.get();
    const conditions = evaluateAlertConditions(await measureAlerts(pool), alertThresholds(current), new Date());
    const webhook = alertWebhookUrl(current) !== "";
    const { raised, resolved } = await withTransaction(pool, async (tx) => {
      const changes = await syncAlerts(tx, conditions);
      if (webhook) {
        for (const alert of changes.raised) await enqueueJob(tx, "deliver_alert", { alertId: alert.id, event: "raised" });
        for (const alert of changes.resolved) await enqueueJob(tx, "deliver_alert", { alertId: alert.id, event: "resolved" });
      }
      return changes;
    });
    for (const alert of raised) helpers.logger.warn(`alert raised: ${alert.message}`);
    for (const alert of resolved) helpers.logger.info(`alert resolved: ${alert.message}`);
  };
}
