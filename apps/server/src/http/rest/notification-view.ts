import type { NotificationRecord } from "@herald/db";

/** The public shape of a notification (docs/api.md): stable field names, ISO dates, no internals. */
export function notificationView(n: NotificationRecord) {
  const iso = (d: Date | null) => d?.toISOString();
  return {
    id: n.id,
    eventId: n.eventId,
    userId: n.userId,
    type: n.type,
    channel: n.channel,
    category: n.category,
    lane: n.lane,
    status: n.status,
    dispatchState: n.dispatchState,
    ...(n.reason ? { reason: n.reason } : {}),
    attempts: n.attempts,
    ...(n.provider ? { provider: n.provider } : {}),
    ...(n.providerMessageId ? { providerMessageId: n.providerMessageId } : {}),
    nextAttemptAt: n.dispatchState === "done" ? undefined : iso(n.nextAttemptAt),
    createdAt: n.createdAt.toISOString(),
    sentAt: iso(n.sentAt),
    deliveredAt: iso(n.deliveredAt),
    failedAt: iso(n.failedAt),
    openedAt: iso(n.openedAt),
    clickedAt: iso(n.clickedAt),
    readAt: iso(n.readAt),
    events: n.events.map((e) => ({ type: e.type, at: e.at.toISOString(), detail: e.detail })),
  };
}
