import type { Channel } from "@herald/core";
import { configureBucket, enqueueJob, type Sql, type StatusEvent } from "@herald/db";
import type { Logger } from "pino";
import type { Env } from "../env.ts";
import type { SettingsCache } from "../settings/settings-service.ts";
import { SecretBox } from "./credentials/secret-box.ts";
import { createLiveRegistry, type LiveRegistry, type ProviderFactories } from "./live-registry.ts";
import type { Provider } from "./provider.ts";
import { DEFAULT_RATE_PER_SECOND } from "./provider-kinds.ts";
import { createSandboxProvider } from "./sandbox/sandbox-provider.ts";
import { createFcmProvider } from "./fcm/fcm-provider.ts";
import { rampedRate } from "./fcm/ramped-rate.ts";
import { createSesProvider } from "./ses/ses-provider.ts";
import { createTwilioProvider, twilioWebhookUrl } from "./twilio/twilio-provider.ts";
import { createWebhookProvider } from "./webhook/webhook-provider.ts";

/**
 * The adapters for each kind of provider (Twilio needs the public URL for its status callbacks),
 * each giving up on an unanswered call after HERALD_PROVIDER_TIMEOUT_MS when it is set.
 */
export const providerFactories = (env: Pick<Env, "publicUrl" | "HERALD_PROVIDER_TIMEOUT_MS">): ProviderFactories => {
  const timeoutMs = env.HERALD_PROVIDER_TIMEOUT_MS;
  const timeout = timeoutMs === undefined ? {} : { timeoutMs };
  return {
    twilio: (spec) =>
      createTwilioProvider({
        name: spec.name,
        accountSid: spec.secrets.accountSid ?? "",
        authToken: spec.secrets.authToken ?? "",
        ...(spec.settings.from ? { from: String(spec.settings.from) } : {}),
        ...(spec.settings.messagingServiceSid ? { messagingServiceSid: String(spec.settings.messagingServiceSid) } : {}),
        ...(spec.settings.baseUrl ? { baseUrl: String(spec.settings.baseUrl) } : {}),
        statusCallbackUrl: twilioWebhookUrl(env.publicUrl),
      }, timeout),
    fcm: (spec) =>
      createFcmProvider({
        name: spec.name,
        serviceAccount: JSON.parse(spec.secrets.serviceAccount ?? "{}") as object,
        ...(spec.settings.endpoint ? { endpoint: String(spec.settings.endpoint) } : {}),
        ...(spec.settings.tokenEndpoint ? { tokenEndpoint: String(spec.settings.tokenEndpoint) } : {}),
      }, timeout),
    ses: (spec) =>
      createSesProvider({
        name: spec.name,
        region: String(spec.settings.region),
        from: String(spec.settings.from),
        ...(spec.settings.configurationSetName ? { configurationSetName: String(spec.settings.configurationSetName) } : {}),
        ...(spec.settings.endpoint ? { endpoint: String(spec.settings.endpoint) } : {}),
        accessKeyId: spec.secrets.accessKeyId ?? "",
        secretAccessKey: spec.secrets.secretAccessKey ?? "",
      }, timeoutMs === undefined ? {} : { requestTimeoutMs: timeoutMs, connectionTimeoutMs: Math.min(timeoutMs, 5_000) }),
    webhook: (spec) =>
      createWebhookProvider({
        name: spec.name,
        channel: spec.channel,
        url: String(spec.settings.url),
        allowedHosts: (spec.settings.allowedHosts as string[] | undefined) ?? [],
        signingSecret: spec.secrets.signingSecret ?? "",
        ...timeout,
      }),
  };
};

/** The sandbox for a channel: records messages, answers like the real services' test identities. */
export function sandboxProvider(channel: Channel, sql: Sql, settings: SettingsCache): Provider {
  const setting = (key: string) => settings.current().get(key) as number;
  return createSandboxProvider(channel, {
    sql,
    faults: () => ({
      failureRate: setting(`sandbox.${channel}.failureRate`),
      throttleRate: setting(`sandbox.${channel}.throttleRate`),
      latencyMs: setting(`sandbox.${channel}.latencyMs`),
    }),
    deliveryDelayMs: () => setting("sandbox.deliveryDelayMs"),
    scheduleStatusEvents: (events, delayMs) => scheduleStatusEvents(sql, events, delayMs),
  });
}

/**
 * The providers this process sends through: environment variables, then Settings → Providers;
 * in development a channel with neither uses the sandbox, in production it stays unconfigured
 * (its notifications defer, and /readyz and the dashboard say so).
 */
export async function configuredProviders(
  env: Env,
  sql: Sql,
  settings: SettingsCache,
  log: Logger,
  factories: ProviderFactories = providerFactories(env),
): Promise<LiveRegistry> {
  return createLiveRegistry({
    env,
    sql,
    box: env.HERALD_SECRET_KEY ? new SecretBox(env.HERALD_SECRET_KEY) : null,
    factories,
    sandbox: (channel) => sandboxProvider(channel, sql, settings),
    log,
  });
}

/**
 * A bucket holds half a second of its rate. A provider counts calls as they reach it, and they
 * reach it a moment after their tokens: up to TOKEN_STALE_MS while a batch calls through them,
 * plus however long the process takes to put the call on the wire (measured at 0.3–0.9 s for a
 * worker's first calls on a loaded 2-core machine). A full second of burst on top of that
 * overran the two seconds of room the reliability suite's SES allows; half a second leaves the
 * lag its room. Sustained sending is the rate either way; only a burst after idle is smaller.
 */
export function bucketBurst(ratePerSecond: number): number {
  return Math.max(1, ratePerSecond / 2);
}

/** When this process first saw each FCM provider: its cold start ramps from there. */
const fcmStarts = new Map<string, Date>();

/**
 * Sizes every provider's token bucket: configured rates, the sandbox's from its setting. FCM
 * asks for a cold start to ramp up over a minute, so its bucket grows from 10 % (called every
 * few seconds by the provider refresh).
 */
export async function configureBuckets(registry: LiveRegistry, sql: Sql, settings: SettingsCache, now = new Date()): Promise<void> {
  const sandboxRate = (await settings.get()).get("providers.sandboxRatePerSecond") as number;
  for (const channel of ["push", "email", "sms"] as const) {
    const route = registry.route(channel);
    for (const provider of route ? [route.primary, ...(route.secondary ? [route.secondary] : [])] : []) {
      const spec = registry.specs().find((s) => s.name === provider.name);
      let rate = spec ? Number(spec.settings.ratePerSecond ?? DEFAULT_RATE_PER_SECOND[spec.kind] ?? 50) : sandboxRate;
      if (spec?.kind === "fcm") {
        if (!fcmStarts.has(spec.name)) fcmStarts.set(spec.name, now);
        rate = rampedRate(rate, fcmStarts.get(spec.name)!, now);
      }
      await configureBucket(sql, provider.name, rate, bucketBurst(rate));
    }
  }
}

/** One job per batch of callbacks, due when the provider would have called back. */
export async function scheduleStatusEvents(sql: Sql, events: StatusEvent[], delayMs: number): Promise<void> {
  await enqueueJob(sql, "apply_status_events", { events }, { delayMs });
}
