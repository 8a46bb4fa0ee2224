/** A notification's status, as the server's status table names them. */
export const notificationStatuses = ["pending", "sent", "delivered", "failed", "bounced", "skipped", "dead", "canceled"] as const;

export type NotificationStatus = (typeof notificationStatuses)[number];

const labels: Record<NotificationStatus, string> = {
  pending: "Pending",
  sent: "Sent",
  delivered: "Delivered",
  failed: "Failed",
  bounced: "Bounced",
  skipped: "Skipped",
  dead: "Dead",
  canceled: "Canceled",
};

// Mirrors STATUS_TABLE in @herald/core, phrased for the dashboard: shown as the badge's tooltip.
const meanings: Record<NotificationStatus, string> = {
  pending: "Created, not yet handed to a provider.",
  sent: "A provider accepted it.",
  delivered: "The provider (or the app) reports it delivered.",
  failed: "The provider reports it undeliverable after accepting it.",
  bounced: "The email bounced permanently.",
  skipped: "A gate refused it: opted out, suppressed, unreachable or capped.",
  dead: "Herald gave up: a permanent error, or attempts or age ran out. It can be replayed.",
  canceled: "Its broadcast was canceled before it was sent.",
};

/** The server types status as a plain string; anything it adds later is shown as it comes. */
export function parseNotificationStatus(status: string): NotificationStatus | null {
  return notificationStatuses.find((known) => known === status) ?? null;
}

export function notificationStatusLabel(status: string): string {
  const known = parseNotificationStatus(status);
  return known ? labels[known] : status;
}

export function notificationStatusMeaning(status: string): string | null {
  const known = parseNotificationStatus(status);
  return known ? meanings[known] : null;
}
