import { z } from "zod";
import { CHANNELS } from "../channels/channels.ts";
import { parseAttributeInstant } from "./attribute-dates.ts";

/** Nodes on the longest path from the root (the root counts as 1). */
export const MAX_RULE_DEPTH = 10;
/** Conditions (leaves) in one tree; the groups around them are bounded separately. */
export const MAX_RULE_CONDITIONS = 100;
export const MAX_RULE_GROUPS = 100;
/** A rule's size as JSON: room for long lists, small enough to store, compile and send around. */
export const MAX_RULE_BYTES = 32 * 1024;
/** Longest look-back a behaviour or date condition may name: about 100 years. */
export const MAX_RULE_DAYS = 36_500;
export const MAX_IN_VALUES = 100;

/** The brief's pattern; a dot reads one level deeper (see `attributePath`). */
export const ATTRIBUTE_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_.]*$/;
/** herald.activities' own check, so a condition can name every activity the API records. */
export const ACTIVITY_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/;

export const RULE_GROUP_KINDS = ["and", "or", "not"] as const;
export const RULE_CONDITION_KINDS = ["attribute", "profile", "activity", "has_active_device", "has_email", "has_phone", "not_suppressed", "segment"] as const;
export const ATTRIBUTE_OPS = ["eq", "ne", "lt", "gt", "contains", "in", "exists", "before", "after", "within_last"] as const;
export const PROFILE_FIELDS = ["email", "phone", "locale", "timezone", "external_id"] as const;
export const PROFILE_OPS = ["eq", "ne", "contains", "in", "exists"] as const;
export const ACTIVITY_OPS = ["did", "did_not", "never"] as const;

export type AttributeOp = (typeof ATTRIBUTE_OPS)[number];
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileOp = (typeof PROFILE_OPS)[number];

const list = (items: readonly string[]) => items.join(", ");

/** The message for a missing or unknown `kind` or `op` (zod reports the whole node as the input). */
function unknownDiscriminator(input: unknown, key: string, what: string, allowed: readonly string[]): string {
  const value = typeof input === "object" && input !== null ? (input as Record<string, unknown>)[key] : undefined;
  if (value === undefined) return `is missing: use ${list(allowed)}`;
  return `${JSON.stringify(value)} is not ${what}: use ${list(allowed)}`;
}

/** A strict object whose unknown keys are refused by name. */
function node<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === "unrecognized_keys" ? `does not take ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}` : undefined),
  });
}

const AttributeNameSchema = z
  .string({ error: "must be an attribute name" })
  .max(128, "must be at most 128 characters")
  .regex(ATTRIBUTE_NAME_PATTERN, 'must start with a letter or "_" and use only letters, digits, "_" and "." (a dot reads a nested attribute)');

const ActivityNameSchema = z
  .string({ error: "must be an activity name" })
  .regex(ACTIVITY_NAME_PATTERN, 'must start with a letter or "_" and use only letters, digits, "_", ".", ":" and "-" (at most 128 characters)');

const DaysSchema = z
  .number({ error: "must be a number of days" })
  .int("must be a whole number of days")
  .min(1, "must be at least 1 day")
  .max(MAX_RULE_DAYS, `must be at most ${MAX_RULE_DAYS} days`);

const TextValueSchema = z.string({ error: "must be a string" }).max(2000, "must be at most 2000 characters");
const NumberValueSchema = z.number({ error: "must be a number" }).refine(Number.isFinite, "must be a finite number");
const ScalarValueSchema = z.union([TextValueSchema, NumberValueSchema, z.boolean()], { error: "must be a string, number or boolean" });

/** An absolute date, or one relative to the moment the segment is evaluated. */
const DATE_VALUE = `must be an ISO date such as "2026-01-31" (or a date-time such as "2026-01-31T09:00:00Z"), or { "daysAgo": N }`;
const DateValueSchema = z.union(
  [
    z.string().refine((text) => parseAttributeInstant(text) !== null, DATE_VALUE),
    node({
      daysAgo: z
        .number({ error: "must be a number of days" })
        .int("must be a whole number of days")
        .min(0, "must be at least 0 days")
        .max(MAX_RULE_DAYS, `must be at most ${MAX_RULE_DAYS} days`),
    }),
  ],
  { error: DATE_VALUE },
);
export type DateValue = z.infer<typeof DateValueSchema>;

const attribute = { kind: z.literal("attribute"), attribute: AttributeNameSchema };

/** A comparison on `users.attributes`: the op decides the value's type. */
export const AttributeConditionSchema = z.discriminatedUnion(
  "op",
  [
    node({ ...attribute, op: z.literal("eq"), value: ScalarValueSchema }),
    node({ ...attribute, op: z.literal("ne"), value: ScalarValueSchema }),
    node({ ...attribute, op: z.literal("lt"), value: NumberValueSchema }),
    node({ ...attribute, op: z.literal("gt"), value: NumberValueSchema }),
    node({ ...attribute, op: z.literal("contains"), value: TextValueSchema.min(1, "must not be empty") }),
    node({
      ...attribute,
      op: z.literal("in"),
      value: z
        .array(z.union([TextValueSchema, NumberValueSchema], { error: "must be a string or number" }), { error: "must be a list of strings or numbers" })
        .min(1, "must list at least one value")
        .max(MAX_IN_VALUES, `must list at most ${MAX_IN_VALUES} values`),
    }),
    node({ ...attribute, op: z.literal("exists") }),
    node({ ...attribute, op: z.literal("before"), value: DateValueSchema }),
    node({ ...attribute, op: z.literal("after"), value: DateValueSchema }),
    node({ ...attribute, op: z.literal("within_last"), value: DaysSchema }),
  ],
  { error: (issue) => unknownDiscriminator(issue.input, "op", "an attribute operator", ATTRIBUTE_OPS) },
);
export type AttributeCondition = z.infer<typeof AttributeConditionSchema>;

const profile = {
  kind: z.literal("profile"),
  field: z.enum(PROFILE_FIELDS, { error: (issue) => `${JSON.stringify(issue.input)} is not a profile field: use ${list(PROFILE_FIELDS)}` }),
};

/** A comparison on one of the user's own columns (text, compared exactly). */
export const ProfileConditionSchema = z.discriminatedUnion(
  "op",
  [
    node({ ...profile, op: z.literal("eq"), value: TextValueSchema }),
    node({ ...profile, op: z.literal("ne"), value: TextValueSchema }),
    node({ ...profile, op: z.literal("contains"), value: TextValueSchema.min(1, "must not be empty") }),
    node({
      ...profile,
      op: z.literal("in"),
      value: z.array(TextValueSchema, { error: "must be a list of strings" }).min(1, "must list at least one value").max(MAX_IN_VALUES, `must list at most ${MAX_IN_VALUES} values`),
    }),
    node({ ...profile, op: z.literal("exists") }),
  ],
  { error: (issue) => unknownDiscriminator(issue.input, "op", "a profile operator", PROFILE_OPS) },
);
export type ProfileCondition = z.infer<typeof ProfileConditionSchema>;

const activity = { kind: z.literal("activity"), activity: ActivityNameSchema };

/** Behaviour over herald.activities; `withinDays` absent means ever. */
export const ActivityConditionSchema = z.discriminatedUnion(
  "op",
  [
    node({
      ...activity,
      op: z.literal("did"),
      atLeast: z.number({ error: "must be a number of times" }).int("must be a whole number").min(1, "must be at least 1").max(10_000, "must be at most 10000").default(1),
      withinDays: DaysSchema.optional(),
    }),
    node({ ...activity, op: z.literal("did_not"), withinDays: DaysSchema }),
    node({ ...activity, op: z.literal("never") }),
  ],
  { error: (issue) => unknownDiscriminator(issue.input, "op", "an activity operator", ACTIVITY_OPS) },
);
export type ActivityCondition = z.infer<typeof ActivityConditionSchema>;

const HasActiveDeviceSchema = node({ kind: z.literal("has_active_device") });
const HasEmailSchema = node({ kind: z.literal("has_email") });
const HasPhoneSchema = node({ kind: z.literal("has_phone") });
const NotSuppressedSchema = node({
  kind: z.literal("not_suppressed"),
  channel: z.enum(CHANNELS, { error: (issue) => `${JSON.stringify(issue.input)} is not a channel: use ${list(CHANNELS)}` }),
});
const SegmentConditionSchema = node({
  kind: z.literal("segment"),
  segmentId: z.string({ error: "must be a segment id" }).regex(/^[1-9]\d{0,17}$/, "must be a segment id"),
});

export type ReachabilityCondition =
  | z.infer<typeof HasActiveDeviceSchema>
  | z.infer<typeof HasEmailSchema>
  | z.infer<typeof HasPhoneSchema>
  | z.infer<typeof NotSuppressedSchema>;
export type SegmentCondition = z.infer<typeof SegmentConditionSchema>;

/** A leaf of the tree. */
export type RuleCondition = AttributeCondition | ProfileCondition | ActivityCondition | ReachabilityCondition | SegmentCondition;

/** A segment's rule: groups over conditions. An empty `and` is everyone, an empty `or` no one. */
export type Rule = { kind: "and"; children: Rule[] } | { kind: "or"; children: Rule[] } | { kind: "not"; child: Rule } | RuleCondition;

// The getters defer the recursive reference until the schema is first used.
const AndSchema = node({
  kind: z.literal("and"),
  get children() {
    return z.array(RuleNodeSchema, { error: "must be a list of conditions and groups" });
  },
});
const OrSchema = node({
  kind: z.literal("or"),
  get children() {
    return z.array(RuleNodeSchema, { error: "must be a list of conditions and groups" });
  },
});
const NotSchema = node({
  kind: z.literal("not"),
  get child() {
    return RuleNodeSchema;
  },
});

/** The tree's structure without its size limits; `RuleSchema` (parse-rule.ts) adds them and is what callers use. */
export const RuleNodeSchema: z.ZodType<Rule, unknown> = z.discriminatedUnion(
  "kind",
  [
    AndSchema,
    OrSchema,
    NotSchema,
    AttributeConditionSchema,
    ProfileConditionSchema,
    ActivityConditionSchema,
    HasActiveDeviceSchema,
    HasEmailSchema,
    HasPhoneSchema,
    NotSuppressedSchema,
    SegmentConditionSchema,
  ],
  {
    error: (issue) =>
      (issue.code as string) === "invalid_type"
        ? "must be an object: a group (and, or, not) or a condition"
        : unknownDiscriminator(issue.input, "kind", "a kind of rule", [...RULE_GROUP_KINDS, ...RULE_CONDITION_KINDS]),
  },
) as z.ZodType<Rule, unknown>;

