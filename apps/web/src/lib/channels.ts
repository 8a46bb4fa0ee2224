/** The ways Herald reaches a user, in the order channel pickers list them. */
export const channels = ["email", "sms", "push"] as const;

/** A channel the dashboard knows; the server may add others before the dashboard does. */
export type Channel = (typeof channels)[number];

const labels: Record<string, string> = { email: "Email", sms: "SMS", push: "Push" };

/** "email" → "Email"; channels the dashboard does not know yet are capitalised as they come. */
export function channelLabel(channel: string): string {
  return labels[channel.toLowerCase()] ?? channel.charAt(0).toUpperCase() + channel.slice(1);
}

/** The channel a select's value names, or null for "all channels". */
export function parseChannel(value: string): Channel | null {
  return channels.find((channel) => channel === value) ?? null;
}
