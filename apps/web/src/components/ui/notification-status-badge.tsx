import {
  notificationStatusLabel,
  notificationStatusMeaning,
  parseNotificationStatus,
  type NotificationStatus,
} from "../../lib/notification-statuses.ts";
import { Badge, type BadgeTone } from "./badge.tsx";

// Red for every way a notification did not arrive, amber for a deliberate skip, grey for not
// decided yet or withdrawn; so a column of badges reads at a glance.
const tones: Record<NotificationStatus, BadgeTone> = {
  pending: "neutral",
  sent: "info",
  delivered: "success",
  failed: "danger",
  bounced: "danger",
  dead: "danger",
  skipped: "warning",
  canceled: "neutral",
};

/** A notification's status; hovering it says what the status means. */
export function NotificationStatusBadge({ status }: { status: string }) {
  const known = parseNotificationStatus(status);
  const tone = known ? tones[known] : "neutral";
  return (
    <Badge tone={tone} title={notificationStatusMeaning(status) ?? undefined}>
      {notificationStatusLabel(status)}
    </Badge>
  );
}
