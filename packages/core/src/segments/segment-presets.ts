import type { Rule } from "./rule-tree.ts";

/** A built-in starting point: an ordinary rule a marketer copies into a new segment and edits. */
export interface SegmentPreset {
  key: string;
  name: string;
  description: string;
  rule: Rule;
}

const hasDevice: Rule = { kind: "has_active_device" };

/**
 * The seed's segments as rule trees. Each starts from users with an active device, as the seed's
 * did: there is no point targeting people a push cannot reach. "Inactive" needs a session ever
 * and none lately, so people who never had one are not counted as lapsed; they have their own.
 */
export const SEGMENT_PRESETS: readonly SegmentPreset[] = [
  {
    key: "all_with_device",
    name: "All users with an active device",
    description: "Everyone a push can reach.",
    rule: { kind: "and", children: [hasDevice] },
  },
  {
    key: "inactive_7d",
    name: "Inactive 7 days",
    description: "Completed a session before, but none in the last 7 days.",
    rule: {
      kind: "and",
      children: [
        hasDevice,
        { kind: "activity", activity: "session_completed", op: "did", atLeast: 1 },
        { kind: "activity", activity: "session_completed", op: "did_not", withinDays: 7 },
      ],
    },
  },
  {
    key: "never_sessioned",
    name: "Never sessioned",
    description: "Has the app but has never completed a session.",
    rule: { kind: "and", children: [hasDevice, { kind: "activity", activity: "session_completed", op: "never" }] },
  },
  {
    key: "test_due",
    name: "Test due",
    description: "The last test (the last_test_at attribute) was more than 30 days ago; change the attribute to the one your app sets.",
    rule: { kind: "and", children: [hasDevice, { kind: "attribute", attribute: "last_test_at", op: "before", value: { daysAgo: 30 } }] },
  },
];
