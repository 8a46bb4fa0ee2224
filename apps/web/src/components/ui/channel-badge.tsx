import { channelLabel } from "../../lib/channels.ts";
import { Badge } from "./badge.tsx";

/** Neutral on purpose: colour in a notification row belongs to its status. */
export function ChannelBadge({ channel }: { channel: string }) {
  return <Badge>{channelLabel(channel)}</Badge>;
}
