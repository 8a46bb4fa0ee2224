import type { Channel } from "@herald/core";
import { z } from "zod";

const rate = z.number().min(0.1).max(100_000).optional();

/** Sends per second when a provider's settings do not say (its token bucket, shared by all workers). */
export const DEFAULT_RATE_PER_SECOND: Record<string, number> = { ses: 14, twilio: 100, fcm: 600, webhook: 50 };

/** What each kind of provider needs: non-secret settings, and secrets sealed at rest. */
export const PROVIDER_KINDS = {
  ses: {
    channels: ["email"] as Channel[],
    settings: z.object({
      region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, "must be an AWS region such as eu-west-1"),
      from: z.string().min(3).max(320),
      configurationSetName: z.string().min(1).max(64).optional(),
      endpoint: z.url().optional(),
      ratePerSecond: rate,
    }),
    secrets: z.object({ accessKeyId: z.string().min(16).max(128), secretAccessKey: z.string().min(16).max(128) }),
  },
  twilio: {
    channels: ["sms"] as Channel[],
    settings: z
      .object({
        from: z.string().regex(/^\+[1-9]\d{6,14}$/).optional(),
        messagingServiceSid: z.string().regex(/^MG[0-9a-fA-F]{32}$/).optional(),
        baseUrl: z.url().optional(),
        ratePerSecond: rate,
      })
      .refine((s) => s.from || s.messagingServiceSid, "give a from number or a Messaging Service SID"),
    secrets: z.object({ accountSid: z.string().regex(/^AC[0-9a-fA-F]{32}$/, "must be AC followed by 32 hex characters"), authToken: z.string().min(16) }),
  },
  fcm: {
    channels: ["push"] as Channel[],
    settings: z.object({ endpoint: z.url().optional(), tokenEndpoint: z.url().optional(), ratePerSecond: rate }),
    secrets: z.object({
      serviceAccount: z.string().refine((s) => {
        try {
          const parsed = JSON.parse(s) as Record<string, unknown>;
          return typeof parsed.project_id === "string" && typeof parsed.private_key === "string" && typeof parsed.client_email === "string";
        } catch {
          return false;
        }
      }, "must be a Firebase service-account JSON with project_id, client_email and private_key"),
    }),
  },
  webhook: {
    channels: ["push", "email", "sms"] as Channel[],
    settings: z.object({ url: z.url(), allowedHosts: z.array(z.string().min(1).max(253)).max(20).default([]), ratePerSecond: rate }),
    secrets: z.object({ signingSecret: z.string().min(32) }),
  },
} as const;

export type ProviderKind = keyof typeof PROVIDER_KINDS;

/** One configured provider, from the environment or from Settings → Providers. */
export interface ProviderSpec {
  channel: Channel;
  role: "primary" | "secondary";
  kind: ProviderKind;
  /** Stable: the token bucket, the breaker and the notification rows use it. */
  name: string;
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
  source: "environment" | "dashboard";
}

export function providerName(kind: string, channel: string, role: string): string {
  return `${kind}-${channel}${role === "secondary" ? "-secondary" : ""}`;
}
