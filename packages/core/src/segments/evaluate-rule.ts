import type { Channel } from "../channels/channels.ts";
import { parseAttributeInstant } from "./attribute-dates.ts";
import { attributeValue } from "./attribute-value.ts";
import type { ActivityCondition, AttributeCondition, DateValue, ProfileCondition, Rule, RuleCondition } from "./rule-tree.ts";
import { MAX_SEGMENT_NESTING } from "./segment-references.ts";

const DAY_MS = 86_400_000;

/** What a rule can ask about one user. */
export interface SegmentSubject {
  externalId: string;
  email: string | null;
  phone: string | null;
  locale: string | null;
  timezone: string | null;
  attributes: Readonly<Record<string, unknown>>;
  activeDeviceTokens: readonly string[];
  activities: ReadonlyArray<{ name: string; occurredAt: Date }>;
}

export interface RuleEvaluationContext {
  now: Date;
  isSuppressed(channel: Channel, address: string): boolean;
  /** The rule of a referenced segment; null when there is no such segment. */
  resolveSegment(segmentId: string): Rule | null;
}

/** The instant `value` names: an absolute date, or `daysAgo` days before now. */
function dateCutoff(value: DateValue, now: Date): number {
  return typeof value === "string" ? parseAttributeInstant(value)! : now.getTime() - value.daysAgo * DAY_MS;
}

function matchesAttribute(c: AttributeCondition, attributes: Readonly<Record<string, unknown>>, now: Date): boolean {
  const v = attributeValue(attributes, c.attribute);
  switch (c.op) {
    case "exists":
      return v !== undefined && v !== null;
    case "eq":
      return v === c.value;
    case "ne":
      return v !== c.value;
    case "lt":
      return typeof v === "number" && v < c.value;
    case "gt":
      return typeof v === "number" && v > c.value;
    case "contains":
      if (typeof v === "string") return v.includes(c.value);
      return Array.isArray(v) && v.includes(c.value);
    case "in":
      if (Array.isArray(v)) return v.some((item) => typeof item === "string" && c.value.includes(item));
      return (typeof v === "string" || typeof v === "number") && c.value.includes(v);
    case "before":
    case "after":
    case "within_last": {
      const instant = typeof v === "string" ? parseAttributeInstant(v) : null;
      if (instant === null) return false;
      if (c.op === "before") return instant < dateCutoff(c.value, now);
      if (c.op === "after") return instant > dateCutoff(c.value, now);
      return instant >= now.getTime() - c.value * DAY_MS && instant <= now.getTime();
    }
  }
}

const PROFILE_COLUMN = {
  email: (s: SegmentSubject) => s.email,
  phone: (s: SegmentSubject) => s.phone,
  locale: (s: SegmentSubject) => s.locale,
  timezone: (s: SegmentSubject) => s.timezone,
  external_id: (s: SegmentSubject) => s.externalId,
} as const;

function matchesProfile(c: ProfileCondition, subject: SegmentSubject): boolean {
  const v = PROFILE_COLUMN[c.field](subject);
  switch (c.op) {
    case "exists":
      return v !== null;
    case "eq":
      return v === c.value;
    case "ne":
      return v !== c.value;
    case "contains":
      return v !== null && v.includes(c.value);
    case "in":
      return v !== null && c.value.includes(v);
  }
}

function matchesActivity(c: ActivityCondition, subject: SegmentSubject, now: Date): boolean {
  const since = (days: number) => now.getTime() - days * DAY_MS;
  const count = (from: number | null) =>
    subject.activities.filter((a) => a.name === c.activity && (from === null || a.occurredAt.getTime() >= from)).length;
  switch (c.op) {
    case "did":
      return count(c.withinDays === undefined ? null : since(c.withinDays)) >= c.atLeast;
    case "did_not":
      return count(since(c.withinDays)) === 0;
    case "never":
      return count(null) === 0;
  }
}

function matchesCondition(c: RuleCondition, subject: SegmentSubject, context: RuleEvaluationContext, trail: readonly string[]): boolean {
  switch (c.kind) {
    case "attribute":
      return matchesAttribute(c, subject.attributes, context.now);
    case "profile":
      return matchesProfile(c, subject);
    case "activity":
      return matchesActivity(c, subject, context.now);
    case "has_active_device":
      return subject.activeDeviceTokens.length > 0;
    case "has_email":
      return subject.email !== null;
    case "has_phone":
      return subject.phone !== null;
    case "not_suppressed":
      if (c.channel === "push") return !subject.activeDeviceTokens.some((token) => context.isSuppressed("push", token));
      {
        const address = c.channel === "email" ? subject.email : subject.phone;
        return address === null || !context.isSuppressed(c.channel, address);
      }
    case "segment": {
      if (trail.includes(c.segmentId) || trail.length >= MAX_SEGMENT_NESTING) {
        throw new Error(`segment ${c.segmentId} is nested too deep or includes itself (${[...trail, c.segmentId].join(" → ")})`);
      }
      const rule = context.resolveSegment(c.segmentId);
      if (!rule) throw new Error(`there is no segment ${c.segmentId}`);
      return matches(rule, subject, context, [...trail, c.segmentId]);
    }
  }
}

function matches(rule: Rule, subject: SegmentSubject, context: RuleEvaluationContext, trail: readonly string[]): boolean {
  switch (rule.kind) {
    case "and":
      return rule.children.every((child) => matches(child, subject, context, trail));
    case "or":
      return rule.children.some((child) => matches(child, subject, context, trail));
    case "not":
      return !matches(rule.child, subject, context, trail);
    default:
      return matchesCondition(rule, subject, context, trail);
  }
}

/**
 * Whether one user is in the segment, decided in memory. The SQL compiler is the implementation
 * that runs; this is the plain reading of the same rules the property test holds it to.
 */
export function evaluateRule(rule: Rule, subject: SegmentSubject, context: RuleEvaluationContext): boolean {
  return matches(rule, subject, context, []);
}
