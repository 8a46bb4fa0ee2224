import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import type { BroadcastStatus } from "./broadcast-types.ts";

const STATUS: Record<BroadcastStatus, { label: string; tone: BadgeTone; title: string }> = {
  draft: { label: "Draft", tone: "neutral", title: "Being composed: nothing is sent until it is scheduled" },
  scheduled: { label: "Scheduled", tone: "info", title: "Waiting for its start time" },
  sending: { label: "Sending", tone: "accent", title: "Recipients are being added and notifications sent" },
  paused: { label: "Paused", tone: "warning", title: "No new sends until it is resumed" },
  sent: { label: "Sent", tone: "success", title: "Every notification has settled" },
  canceled: { label: "Canceled", tone: "neutral", title: "Stopped: notifications not yet sent were canceled" },
};

export function BroadcastStatusBadge({ status }: { status: BroadcastStatus }) {
  const s = STATUS[status];
  return (
    <Badge tone={s.tone} title={s.title}>
      {s.label}
    </Badge>
  );
}

/** The statuses the list filters by, in lifecycle order. */
export const STATUS_FILTERS: Array<{ value: BroadcastStatus | ""; label: string }> = [
  { value: "", label: "All" },
  { value: "draft", label: "Drafts" },
  { value: "scheduled", label: "Scheduled" },
  { value: "sending", label: "Sending" },
  { value: "paused", label: "Paused" },
  { value: "sent", label: "Sent" },
  { value: "canceled", label: "Canceled" },
];
