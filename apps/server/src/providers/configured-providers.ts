import { CHANNELS, type Channel } from "@herald/core";
import type { Sql, StatusEvent } from "@herald/db";
import type { Env } from "../env.ts";
import type { SettingsCache } from "../settings/settings-service.ts";
import { createProviderRegistry, type ChannelRoute, type ProviderRegistry } from "./provider-registry.ts";
import { createSandboxProvider } from "./sandbox/sandbox-provider.ts";

/**
 * The providers this process sends through. In development, a channel with no credentials uses
 * the sandbox; in production it never does: the channel stays unconfigured, its notifications
 * defer, and /readyz and the dashboard say so.
 */
export function configuredProviders(env: Env, sql: Sql, settings: SettingsCache): ProviderRegistry {
  const routes: Partial<Record<Channel, ChannelRoute>> = {};
  if (env.HERALD_MODE === "development") {
    const setting = (key: string) => settings.current().get(key) as number;
    for (const channel of CHANNELS) {
      routes[channel] = {
        primary: createSandboxProvider(channel, {
          sql,
          faults: () => ({
            failureRate: setting(`sandbox.${channel}.failureRate`),
            throttleRate: setting(`sandbox.${channel}.throttleRate`),
            latencyMs: setting(`sandbox.${channel}.latencyMs`),
          }),
          deliveryDelayMs: () => setting("sandbox.deliveryDelayMs"),
          scheduleStatusEvents: (events, delayMs) => scheduleStatusEvents(sql, events, delayMs),
        }),
      };
    }
  }
  return createProviderRegistry(routes);
}

/** One job per batch of callbacks, due when the provider would have called back. */
export async function scheduleStatusEvents(sql: Sql, events: StatusEvent[], delayMs: number): Promise<void> {
  await sql.query("SELECT graphile_worker.add_job('apply_status_events', $1::json, run_at := now() + make_interval(secs => $2::float8 / 1000))", [
    JSON.stringify({ events }),
    delayMs,
  ]);
}
