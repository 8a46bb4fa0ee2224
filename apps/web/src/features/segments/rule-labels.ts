import type { AttributeOp, ProfileField, ProfileOp } from "@herald/core/browser";
import type { ActivityOp, ConditionKind, SuppressionChannel } from "./rule-draft.ts";

/** The condition picker's options, grouped as a marketer thinks of them. */
export const CONDITION_KINDS: ReadonlyArray<{ group: string; options: ReadonlyArray<{ kind: ConditionKind; label: string }> }> = [
  {
    group: "Behaviour",
    options: [{ kind: "activity", label: "Activity" }],
  },
  {
    group: "Data",
    options: [
      { kind: "attribute", label: "Attribute" },
      { kind: "profile", label: "Profile field" },
    ],
  },
  {
    group: "Reachability",
    options: [
      { kind: "has_active_device", label: "Has an active device" },
      { kind: "has_email", label: "Has an email address" },
      { kind: "has_phone", label: "Has a phone number" },
      { kind: "not_suppressed", label: "Is not suppressed on" },
    ],
  },
  {
    group: "Membership",
    options: [{ kind: "segment", label: "Is in segment" }],
  },
];

export const ATTRIBUTE_OP_LABELS: Record<AttributeOp, string> = {
  eq: "is",
  ne: "is not",
  lt: "is less than",
  gt: "is more than",
  contains: "contains",
  in: "is one of",
  exists: "is set",
  before: "is before",
  after: "is after",
  within_last: "is within the last",
};

export const PROFILE_OP_LABELS: Record<ProfileOp, string> = {
  eq: "is",
  ne: "is not",
  contains: "contains",
  in: "is one of",
  exists: "is set",
};

export const PROFILE_FIELD_LABELS: Record<ProfileField, string> = {
  email: "Email",
  phone: "Phone",
  locale: "Locale",
  timezone: "Time zone",
  external_id: "User id",
};

export const ACTIVITY_OP_LABELS: Record<ActivityOp, string> = {
  did: "did it at least",
  did_not: "did not do it in the last",
  never: "never did it",
};

export const SUPPRESSION_CHANNELS: ReadonlyArray<{ channel: SuppressionChannel; label: string }> = [
  { channel: "email", label: "Email" },
  { channel: "sms", label: "SMS" },
  { channel: "push", label: "Push" },
];
