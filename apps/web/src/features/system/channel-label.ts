const labels: Record<string, string> = { email: "Email", sms: "SMS", push: "Push" };

/** "email" → "Email"; channels the dashboard does not know yet are capitalised as they come. */
export function channelLabel(channel: string): string {
  return labels[channel.toLowerCase()] ?? channel.charAt(0).toUpperCase() + channel.slice(1);
}
