import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc.ts";
import { channelLabel } from "../../lib/channels.ts";

const list = new Intl.ListFormat("en", { style: "long", type: "conjunction" });

/**
 * In production a channel without provider credentials does not fail its notifications, it holds
 * them back; without this banner nobody would notice until users complain.
 */
export function UnconfiguredChannelsBanner() {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.system.status.queryOptions());
  if (!data || data.mode !== "production" || data.unconfiguredChannels.length === 0) return null;

  const single = data.unconfiguredChannels.length === 1;
  const channels = list.format(data.unconfiguredChannels.map(channelLabel));
  return (
    <div className="banner banner-warning" role="status">
      <p className="banner-text">
        {`${channels} ${single ? "is" : "are"} not configured: ${single ? "its" : "their"} notifications are deferred.`}
      </p>
      <p className="banner-detail">
        Configure a provider in Settings → Providers (or the server environment) to start sending.
      </p>
    </div>
  );
}
