import type { Channel } from "@herald/core";
import type { Provider } from "./provider.ts";

/** A channel's providers: the breaker fails over to the secondary on provider trouble only. */
export interface ChannelRoute {
  primary: Provider;
  secondary?: Provider;
}

/** Which provider serves each channel; null for a channel nobody configured. */
export interface ProviderRegistry {
  route(channel: Channel): ChannelRoute | null;
  unconfiguredChannels(): Channel[];
}

export function createProviderRegistry(routes: Partial<Record<Channel, ChannelRoute>>): ProviderRegistry {
  return {
    route: (channel) => routes[channel] ?? null,
    unconfiguredChannels: () => (["push", "email", "sms"] as const).filter((c) => !routes[c]),
  };
}
