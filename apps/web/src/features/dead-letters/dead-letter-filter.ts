import { channelLabel, type Channel } from "../../lib/channels.ts";

/** The filters applied to the list, and to "Replay all matching". */
export type DeadLetterFilter = {
  channel: Channel | null;
  /** An exact reason code, or a prefix ending in ":" such as "provider_rejected:". */
  reason: string | null;
  /** Only what has been dead at least this long. */
  olderThanMinutes: number | null;
};

export const noFilter: DeadLetterFilter = { channel: null, reason: null, olderThanMinutes: null };

export function isFiltered(filter: DeadLetterFilter): boolean {
  return filter.channel !== null || filter.reason !== null || filter.olderThanMinutes !== null;
}

/** "SMS dead letters with reason provider_rejected: that have been dead for at least 30 minutes". */
export function describeFilter(filter: DeadLetterFilter): string {
  if (!isFiltered(filter)) return "every dead letter";
  const parts = [filter.channel ? `${channelLabel(filter.channel)} dead letters` : "dead letters"];
  if (filter.reason) parts.push(filter.reason.endsWith(":") ? `with a reason starting ${filter.reason}` : `with reason ${filter.reason}`);
  if (filter.olderThanMinutes !== null) {
    parts.push(`that have been dead for at least ${filter.olderThanMinutes} minute${filter.olderThanMinutes === 1 ? "" : "s"}`);
  }
  return parts.join(" ");
}
