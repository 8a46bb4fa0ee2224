/** A broadcast's lifecycle. */
export const BROADCAST_STATUSES = ["draft", "scheduled", "sending", "paused", "sent", "canceled"] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** What a marketer may do to a broadcast, and from which statuses. */
export const BROADCAST_ACTIONS = {
  edit: ["draft"],
  schedule: ["draft"],
  unschedule: ["scheduled"],
  pause: ["sending"],
  resume: ["paused"],
  cancel: ["scheduled", "sending", "paused"],
} as const satisfies Record<string, readonly BroadcastStatus[]>;
export type BroadcastAction = keyof typeof BROADCAST_ACTIONS;

/** Whether the action is allowed now; the reason in words when it is not. */
export function checkBroadcastAction(action: BroadcastAction, status: BroadcastStatus): { ok: true } | { ok: false; reason: string } {
  if ((BROADCAST_ACTIONS[action] as readonly BroadcastStatus[]).includes(status)) return { ok: true };
  const allowed = BROADCAST_ACTIONS[action].join(" or ");
  return { ok: false, reason: `a broadcast can be ${ACTION_WORDS[action]} only while ${allowed}; this one is ${status}` };
}

const ACTION_WORDS: Record<BroadcastAction, string> = {
  edit: "edited",
  schedule: "scheduled",
  unschedule: "unscheduled",
  pause: "paused",
  resume: "resumed",
  cancel: "canceled",
};
