import {
  ACTIVITY_NAME_PATTERN,
  ATTRIBUTE_NAME_PATTERN,
  MAX_RULE_DAYS,
  parseAttributeInstant,
  type AttributeCondition,
  type DateValue,
  type ProfileCondition,
  type Rule,
  type RuleCondition,
} from "@herald/core/browser";
import { problemKey, type ConditionDraft, type DraftInput, type DraftProblems, type GroupDraft, type NodeDraft } from "./rule-draft.ts";

/*
 * The builder's draft read back as a rule tree, with a problem for every input that does not
 * make one yet. The same checks as core's RuleSchema, said for a form: the server parses again.
 */

/** The rule the draft stands for, or the problems that stop it being one, keyed by input. */
export type DraftReading = { ok: true; rule: Rule } | { ok: false; problems: DraftProblems };

export function ruleFromDraft(root: GroupDraft): DraftReading {
  const problems = new Map<string, string>();
  const rule = readNode(root, problems);
  return problems.size === 0 ? { ok: true, rule } : { ok: false, problems };
}

function readNode(node: NodeDraft, problems: Map<string, string>): Rule {
  const rule: Rule = node.node === "group" ? { kind: node.match, children: node.children.map((child) => readNode(child, problems)) } : readCondition(node, problems);
  return node.negated ? { kind: "not", child: rule } : rule;
}

function readCondition(c: ConditionDraft, problems: Map<string, string>): RuleCondition {
  const fail = (input: DraftInput, message: string) => problems.set(problemKey(c.id, input), message);
  switch (c.kind) {
    case "attribute": {
      const attribute = c.attribute.trim();
      if (!attribute) fail("attribute", "Choose an attribute.");
      else if (!ATTRIBUTE_NAME_PATTERN.test(attribute) || attribute.length > 128) {
        fail("attribute", "Use letters, digits, “_” and “.”, starting with a letter or “_”.");
      }
      return readAttribute(c, attribute, fail);
    }
    case "profile":
      return readProfile(c, fail);
    case "activity": {
      const activity = c.activity.trim();
      if (!activity) fail("activity", "Choose an activity.");
      else if (!ACTIVITY_NAME_PATTERN.test(activity)) fail("activity", "Use letters, digits, “_”, “.”, “:” and “-”, starting with a letter or “_”.");
      if (c.activityOp === "never") return { kind: "activity", activity, op: "never" };
      if (c.activityOp === "did_not") {
        return { kind: "activity", activity, op: "did_not", withinDays: readDays(c.withinDays, () => fail("withinDays", daysMessage)) };
      }
      const atLeast = readWhole(c.atLeast, 1, 10_000);
      if (atLeast === null) fail("atLeast", "Enter a whole number from 1 to 10,000.");
      const within = c.didEver ? undefined : readDays(c.withinDays, () => fail("withinDays", daysMessage));
      return { kind: "activity", activity, op: "did", atLeast: atLeast ?? 1, ...(within === undefined ? {} : { withinDays: within }) };
    }
    case "not_suppressed":
      return { kind: "not_suppressed", channel: c.channel };
    case "segment":
      if (!c.segmentId) fail("segmentId", "Choose a segment.");
      return { kind: "segment", segmentId: c.segmentId || "1" };
    case "has_active_device":
    case "has_email":
    case "has_phone":
      return { kind: c.kind };
  }
}

const daysMessage = `Enter a whole number of days from 1 to ${MAX_RULE_DAYS.toLocaleString()}.`;

function readAttribute(c: ConditionDraft, attribute: string, fail: (input: DraftInput, message: string) => void): AttributeCondition {
  const base = { kind: "attribute" as const, attribute };
  const text = c.value.trim();
  switch (c.attributeOp) {
    case "exists":
      return { ...base, op: "exists" };
    case "eq":
    case "ne": {
      if (c.valueType === "number") {
        const value = readNumber(text);
        if (value === null) fail("value", "Enter a number, e.g. 42 or 3.5.");
        return { ...base, op: c.attributeOp, value: value ?? 0 };
      }
      if (c.valueType === "boolean") return { ...base, op: c.attributeOp, value: text === "true" };
      return { ...base, op: c.attributeOp, value: c.value };
    }
    case "lt":
    case "gt": {
      const value = readNumber(text);
      if (value === null) fail("value", "Enter a number, e.g. 42 or 3.5.");
      return { ...base, op: c.attributeOp, value: value ?? 0 };
    }
    case "contains":
      if (!c.value) fail("value", "Enter the text to look for.");
      return { ...base, op: "contains", value: c.value };
    case "in": {
      const items = splitList(c.value);
      if (items.length === 0) fail("value", "List at least one value, separated by commas.");
      if (c.valueType === "number") {
        const numbers = items.map(readNumber);
        if (numbers.some((n) => n === null)) fail("value", "Every value must be a number.");
        return { ...base, op: "in", value: numbers.map((n) => n ?? 0) };
      }
      return { ...base, op: "in", value: items };
    }
    case "before":
    case "after":
      return { ...base, op: c.attributeOp, value: readDate(c, fail) };
    case "within_last":
      return { ...base, op: "within_last", value: readDays(c.value, () => fail("value", daysMessage)) };
  }
}

function readDate(c: ConditionDraft, fail: (input: DraftInput, message: string) => void): DateValue {
  if (c.dateMode === "date") {
    if (parseAttributeInstant(c.value.trim()) === null) fail("value", "Pick a date.");
    return c.value.trim();
  }
  const days = readWhole(c.value, 0, MAX_RULE_DAYS);
  if (days === null) fail("value", `Enter a whole number of days from 0 to ${MAX_RULE_DAYS.toLocaleString()}.`);
  return { daysAgo: days ?? 0 };
}

function readProfile(c: ConditionDraft, fail: (input: DraftInput, message: string) => void): ProfileCondition {
  const base = { kind: "profile" as const, field: c.field };
  switch (c.profileOp) {
    case "exists":
      return { ...base, op: "exists" };
    case "in": {
      const items = splitList(c.value);
      if (items.length === 0) fail("value", "List at least one value, separated by commas.");
      return { ...base, op: "in", value: items };
    }
    case "contains":
      if (!c.value) fail("value", "Enter the text to look for.");
      return { ...base, op: "contains", value: c.value };
    default:
      return { ...base, op: c.profileOp, value: c.value };
  }
}

function splitList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

function readNumber(text: string): number | null {
  if (text.trim() === "") return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

function readWhole(text: string, min: number, max: number): number | null {
  const value = readNumber(text.trim());
  return value !== null && Number.isInteger(value) && value >= min && value <= max ? value : null;
}

function readDays(text: string, onBad: () => void): number {
  const days = readWhole(text, 1, MAX_RULE_DAYS);
  if (days === null) onBad();
  return days ?? 1;
}
