import { CHANNELS, type Channel } from "@herald/core";
import { listProviderConfigs, providerConfigVersion, type Sql } from "@herald/db";
import fs from "node:fs";
import type { Logger } from "pino";
import type { Env } from "../env.ts";
import type { SecretBox } from "./credentials/secret-box.ts";
import type { Provider } from "./provider.ts";
import { providerName, type ProviderKind, type ProviderSpec } from "./provider-kinds.ts";
import type { ChannelRoute, ProviderRegistry } from "./provider-registry.ts";

/** Builds a provider from its spec; one per kind. */
export type ProviderFactories = Partial<Record<ProviderKind, (spec: ProviderSpec) => Provider>>;

/** Providers configured by environment variables: they win over the dashboard's primary. */
export function environmentSpecs(env: Env): ProviderSpec[] {
  const specs: ProviderSpec[] = [];
  const spec = (channel: Channel, kind: ProviderKind, settings: Record<string, unknown>, secrets: Record<string, string>): ProviderSpec => ({
    channel,
    role: "primary",
    kind,
    name: providerName(kind, channel, "primary"),
    settings,
    secrets,
    source: "environment",
  });
  if (env.HERALD_SES_REGION && env.HERALD_SES_ACCESS_KEY_ID && env.HERALD_SES_SECRET_ACCESS_KEY && env.HERALD_SES_FROM) {
    specs.push(
      spec(
        "email",
        "ses",
        { region: env.HERALD_SES_REGION, from: env.HERALD_SES_FROM, configurationSetName: env.HERALD_SES_CONFIGURATION_SET, endpoint: env.HERALD_SES_ENDPOINT },
        { accessKeyId: env.HERALD_SES_ACCESS_KEY_ID, secretAccessKey: env.HERALD_SES_SECRET_ACCESS_KEY },
      ),
    );
  }
  if (env.HERALD_TWILIO_ACCOUNT_SID && env.HERALD_TWILIO_AUTH_TOKEN && (env.HERALD_TWILIO_FROM || env.HERALD_TWILIO_MESSAGING_SERVICE_SID)) {
    specs.push(
      spec(
        "sms",
        "twilio",
        { from: env.HERALD_TWILIO_FROM, messagingServiceSid: env.HERALD_TWILIO_MESSAGING_SERVICE_SID, baseUrl: env.HERALD_TWILIO_BASE_URL },
        { accountSid: env.HERALD_TWILIO_ACCOUNT_SID, authToken: env.HERALD_TWILIO_AUTH_TOKEN },
      ),
    );
  }
  if (env.HERALD_FCM_SERVICE_ACCOUNT) {
    const raw = env.HERALD_FCM_SERVICE_ACCOUNT.trim();
    const serviceAccount = raw.startsWith("{") ? raw : fs.readFileSync(raw, "utf8");
    specs.push(spec("push", "fcm", { endpoint: env.HERALD_FCM_ENDPOINT, tokenEndpoint: env.HERALD_FCM_TOKEN_ENDPOINT }, { serviceAccount }));
  }
  return specs;
}

/** Providers stored in Settings → Providers, their secrets opened with HERALD_SECRET_KEY. */
export async function dashboardSpecs(sql: Sql, box: SecretBox | null, log: Logger): Promise<ProviderSpec[]> {
  const specs: ProviderSpec[] = [];
  for (const config of await listProviderConfigs(sql)) {
    if (!config.enabled) continue;
    let secrets: Record<string, string> = {};
    if (config.secretCiphertext) {
      if (!box) {
        log.error({ channel: config.channel, role: config.role }, "a stored provider has secrets but HERALD_SECRET_KEY is not set: skipped");
        continue;
      }
      try {
        secrets = JSON.parse(box.open(config.secretCiphertext)) as Record<string, string>;
      } catch {
        log.error({ channel: config.channel, role: config.role }, "a stored provider's secrets do not open with this HERALD_SECRET_KEY: skipped");
        continue;
      }
    }
    specs.push({
      channel: config.channel,
      role: config.role,
      kind: config.kind,
      name: providerName(config.kind, config.channel, config.role),
      settings: config.settings,
      secrets,
      source: "dashboard",
    });
  }
  return specs;
}

export interface LiveRegistry extends ProviderRegistry {
  /** The specs in force (secrets included: never send them to a browser). */
  specs(): ProviderSpec[];
  /** Re-reads the configuration when it changed; cheap when it did not. */
  refresh(): Promise<void>;
}

/**
 * Which provider serves each channel, rebuilt when Settings → Providers changes. A channel
 * nobody configured uses the sandbox in development and nothing in production.
 */
export async function createLiveRegistry(options: {
  env: Env;
  sql: Sql;
  box: SecretBox | null;
  factories: ProviderFactories;
  sandbox: (channel: Channel) => Provider;
  log: Logger;
}): Promise<LiveRegistry> {
  let version = "";
  let routes: Partial<Record<Channel, ChannelRoute>> = {};
  let specs: ProviderSpec[] = [];

  const build = async () => {
    const fromEnv = environmentSpecs(options.env);
    const fromDashboard = await dashboardSpecs(options.sql, options.box, options.log);
    const next: Partial<Record<Channel, ChannelRoute>> = {};
    const used: ProviderSpec[] = [];
    for (const channel of CHANNELS) {
      const primarySpec =
        fromEnv.find((s) => s.channel === channel) ?? fromDashboard.find((s) => s.channel === channel && s.role === "primary");
      const secondarySpec = fromDashboard.find((s) => s.channel === channel && s.role === "secondary");
      const make = (spec: ProviderSpec | undefined) => {
        if (!spec) return undefined;
        const factory = options.factories[spec.kind];
        if (!factory) {
          options.log.error({ kind: spec.kind, channel }, "no adapter for this provider kind: skipped");
          return undefined;
        }
        used.push(spec);
        return factory(spec);
      };
      const primary = make(primarySpec) ?? (options.env.HERALD_MODE === "development" ? options.sandbox(channel) : undefined);
      const secondary = make(secondarySpec);
      if (primary) next[channel] = { primary, ...(secondary ? { secondary } : {}) };
    }
    routes = next;
    specs = used;
  };

  const registry: LiveRegistry = {
    route: (channel) => routes[channel] ?? null,
    unconfiguredChannels: () => CHANNELS.filter((c) => !routes[c]),
    specs: () => specs,
    async refresh() {
      const current = await providerConfigVersion(options.sql);
      if (current === version) return;
      version = current;
      await build();
    },
  };
  await registry.refresh();
  return registry;
}
