import type { AlertThresholds } from "@herald/core";
import { findAlertWebhookSecret, type Sql } from "@herald/db";
import type { Env } from "../env.ts";
import { SecretBox } from "../providers/credentials/secret-box.ts";
import type { SettingsSnapshot } from "../settings/settings-service.ts";
import type { AlertWebhookTarget } from "./alert-webhook.ts";

export function alertThresholds(settings: SettingsSnapshot): AlertThresholds {
  return {
    deadLetterDepth: settings.get("alerts.deadLetterDepth") as number,
    breakerOpenMinutes: settings.get("alerts.breakerOpenMinutes") as number,
    complaintRatePercent: settings.get("alerts.complaintRatePercent") as number,
    bounceRatePercent: settings.get("alerts.bounceRatePercent") as number,
    backlogAgeMinutes: settings.get("alerts.backlogAgeMinutes") as number,
  };
}

export function alertWebhookUrl(settings: SettingsSnapshot): string {
  return settings.get("alerts.webhookUrl") as string;
}

/** Where alerts go now, or why they can't: no URL is no webhook; a URL without a secret is an error to report. */
export async function alertWebhookTarget(
  sql: Sql,
  settings: SettingsSnapshot,
  env: Env,
): Promise<{ kind: "off" } | { kind: "unsigned"; reason: string } | { kind: "ready"; target: AlertWebhookTarget }> {
  const url = alertWebhookUrl(settings);
  if (!url) return { kind: "off" };
  const sealed = await findAlertWebhookSecret(sql);
  if (!sealed) return { kind: "unsigned", reason: "no signing secret is stored (Settings → General → Alert webhook secret)" };
  if (!env.HERALD_SECRET_KEY) return { kind: "unsigned", reason: "HERALD_SECRET_KEY is not set, so the stored signing secret cannot be opened" };
  const allowedHosts = (settings.get("alerts.webhookAllowedHosts") as string)
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  return { kind: "ready", target: { url, signingSecret: new SecretBox(env.HERALD_SECRET_KEY).open(sealed), allowedHosts } };
}
