import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { classifyHttpStatus, type Channel, type SendOutcome } from "@herald/core";
import { notCalled, type OutboundMessage, type Provider, type ProviderCallResult, type SendOptions } from "../provider.ts";
import { SsrfRefusal, vetOutboundUrl, type VetOptions } from "./ssrf-guard.ts";

export interface WebhookConfig {
  name: string;
  channel: Channel;
  url: string;
  /** HMAC-SHA256 key for the Herald-Signature header. */
  signingSecret: string;
  allowedHosts: readonly string[];
  resolve?: VetOptions["resolve"];
  /** Default 10 s. */
  timeoutMs?: number;
}

export interface WebhookResponse {
  status: number;
  retryAfter: string | null;
}

const TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs each notification as signed JSON to a customer's HTTPS endpoint. The target is vetted
 * (no loopback, private, link-local, CGNAT or metadata addresses, in any spelling), the
 * connection is pinned to the vetted address, redirects are never followed, and the answer is
 * capped in size and time. Only the status code is ever reported back.
 */
export function createWebhookProvider(config: WebhookConfig): Provider {
  return {
    name: config.name,
    channel: config.channel,
    async send(messages: readonly OutboundMessage[], { permit }: SendOptions = {}): Promise<ProviderCallResult[]> {
      return Promise.all(
        messages.map(async (message) => {
          if (permit && !(await permit(message))) return notCalled();
          const started = Date.now();
          const outcome = await deliver(config, message);
          return { outcome, latencyMs: Date.now() - started };
        }),
      );
    },
  };
}

async function deliver(config: WebhookConfig, message: OutboundMessage): Promise<SendOutcome> {
  const body = JSON.stringify({
    notificationId: message.notificationId,
    channel: message.channel,
    to: message.to,
    subject: message.subject,
    title: message.title,
    body: message.body,
    html: message.html,
    imageUrl: message.imageUrl,
    deepLink: message.deepLink,
    data: message.data,
  });
  try {
    const response = await postSigned(config, body, message.notificationId);
    if (response.status >= 200 && response.status < 300) {
      return { kind: "sent", providerMessageId: `webhook-${message.notificationId}-${Date.now()}` };
    }
    if (response.status >= 300 && response.status < 400) {
      return { kind: "dead", reason: `provider_rejected:${response.status}`, providerCode: String(response.status) };
    }
    return classifyHttpStatus(response.status, response.retryAfter, new Date()) ?? { kind: "retry", reason: "unexpected_status" };
  } catch (error) {
    if (error instanceof SsrfRefusal) return { kind: "outage", reason: "webhook_target_refused" };
    return { kind: "retry", reason: (error as Error).message === "timeout" ? "timeout" : "network_error" };
  }
}

/** One signed POST, pinned to the vetted address; resolves with the status code only. */
export async function postSigned(
  config: Pick<WebhookConfig, "url" | "signingSecret" | "allowedHosts" | "resolve" | "timeoutMs">,
  body: string,
  idempotencyKey: string,
): Promise<WebhookResponse> {
  const target = await vetOutboundUrl(config.url, { allowedHosts: config.allowedHosts, resolve: config.resolve });
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac("sha256", config.signingSecret).update(`${timestamp}.${body}`).digest("hex");
  const transport = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      target.url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "Herald-Webhook/1",
          "idempotency-key": idempotencyKey,
          "herald-signature": `t=${timestamp},v1=${signature}`,
        },
        // The connection goes to the address we vetted, whatever DNS says by now.
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: target.address, family: target.family }]);
          else (callback as (e: null, a: string, f: number) => void)(null, target.address, target.family);
        },
        timeout: config.timeoutMs ?? TIMEOUT_MS,
      },
      (response) => {
        let received = 0;
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on("close", () => resolve({ status: response.statusCode ?? 0, retryAfter: (response.headers["retry-after"] as string | undefined) ?? null }));
        response.on("error", () => undefined);
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", reject);
    request.end(body);
  });
}
