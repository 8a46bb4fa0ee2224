import type { AlertRecord } from "@herald/db";
import { postSigned } from "../providers/webhook/webhook-provider.ts";
import { SsrfRefusal, type VetOptions } from "../providers/webhook/ssrf-guard.ts";

export interface AlertWebhookTarget {
  url: string;
  signingSecret: string;
  allowedHosts: readonly string[];
  resolve?: VetOptions["resolve"];
}

export type AlertDelivery = { kind: "delivered"; status: number } | { kind: "refused"; reason: string } | { kind: "failed"; reason: string };

/** The JSON an alert webhook receives. */
export function alertWebhookBody(event: "raised" | "resolved", alert: AlertRecord): string {
  return JSON.stringify({
    event,
    alert: {
      id: alert.id,
      kind: alert.kind,
      subject: alert.subject,
      message: alert.message,
      value: alert.value,
      threshold: alert.threshold,
      raisedAt: alert.raisedAt.toISOString(),
      resolvedAt: alert.resolvedAt?.toISOString() ?? null,
    },
  });
}

/**
 * POSTs one alert event through the generic webhook provider's signed, SSRF-guarded request
 * (Herald-Signature: t=<unix seconds>,v1=<HMAC-SHA256 of "<t>.<body>">). A refused target is
 * permanent; a network error or a non-2xx answer is worth another try.
 */
export async function deliverAlertWebhook(target: AlertWebhookTarget, event: "raised" | "resolved", alert: AlertRecord): Promise<AlertDelivery> {
  try {
    const response = await postSigned(target, alertWebhookBody(event, alert), `herald-alert-${alert.id}-${event}`);
    if (response.status >= 200 && response.status < 300) return { kind: "delivered", status: response.status };
    return { kind: "failed", reason: `answered ${response.status}` };
  } catch (error) {
    if (error instanceof SsrfRefusal) return { kind: "refused", reason: error.message };
    return { kind: "failed", reason: (error as Error).message };
  }
}
