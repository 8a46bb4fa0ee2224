import type { ActivityCondition, AttributeCondition, DateValue, ProfileCondition, Rule, RuleCondition } from "./rule-tree.ts";

const PROFILE_LABEL = { email: "email", phone: "phone", locale: "locale", timezone: "time zone", external_id: "external id" } as const;

const quote = (value: string | number | boolean) => (typeof value === "string" ? JSON.stringify(value) : String(value));
const times = (n: number) => (n === 1 ? "once" : `${n} times`);
const lastDays = (n: number) => (n === 1 ? "in the last day" : `in the last ${n} days`);
const daysAgo = (n: number) => (n === 1 ? "1 day ago" : `${n} days ago`);

function dateWords(op: "before" | "after", value: DateValue): string {
  if (typeof value === "string") return `${op} ${value}`;
  if (value.daysAgo === 0) return op === "before" ? "in the past" : "in the future";
  return op === "before" ? `more than ${daysAgo(value.daysAgo)}` : `less than ${daysAgo(value.daysAgo)}`;
}

function attributeWords(c: AttributeCondition): string {
  const name = c.attribute;
  switch (c.op) {
    case "eq":
      return `${name} is ${quote(c.value)}`;
    case "ne":
      return `${name} is not ${quote(c.value)}`;
    case "lt":
      return `${name} is less than ${c.value}`;
    case "gt":
      return `${name} is more than ${c.value}`;
    case "contains":
      return `${name} contains ${quote(c.value)}`;
    case "in":
      return `${name} is one of ${c.value.map(quote).join(", ")}`;
    case "exists":
      return `${name} is set`;
    case "before":
    case "after":
      return `${name} is ${dateWords(c.op, c.value)}`;
    case "within_last":
      return `${name} is within the last ${c.value === 1 ? "day" : `${c.value} days`}`;
  }
}

function profileWords(c: ProfileCondition): string {
  const name = PROFILE_LABEL[c.field];
  switch (c.op) {
    case "eq":
      return `${name} is ${quote(c.value)}`;
    case "ne":
      return `${name} is not ${quote(c.value)}`;
    case "contains":
      return `${name} contains ${quote(c.value)}`;
    case "in":
      return `${name} is one of ${c.value.map(quote).join(", ")}`;
    case "exists":
      return `${name} is set`;
  }
}

function activityWords(c: ActivityCondition): string {
  switch (c.op) {
    case "did":
      return `did ${c.activity} at least ${times(c.atLeast)}${c.withinDays === undefined ? "" : ` ${lastDays(c.withinDays)}`}`;
    case "did_not":
      return `did not do ${c.activity} ${lastDays(c.withinDays)}`;
    case "never":
      return `never did ${c.activity}`;
  }
}

function conditionWords(c: RuleCondition, segmentNames: Readonly<Record<string, string>>): string {
  switch (c.kind) {
    case "attribute":
      return attributeWords(c);
    case "profile":
      return profileWords(c);
    case "activity":
      return activityWords(c);
    case "has_active_device":
      return "has an active device";
    case "has_email":
      return "has an email address";
    case "has_phone":
      return "has a phone number";
    case "not_suppressed":
      return `is not suppressed on ${c.channel}`;
    case "segment": {
      const name = segmentNames[c.segmentId];
      return name === undefined ? `is in segment #${c.segmentId}` : `is in segment ${JSON.stringify(name)}`;
    }
  }
}

/** The natural negation of the conditions that have one ("has no phone number"); null for the rest. */
function negatedWords(rule: Rule, segmentNames: Readonly<Record<string, string>>): string | null {
  switch (rule.kind) {
    case "has_active_device":
      return "has no active device";
    case "has_email":
      return "has no email address";
    case "has_phone":
      return "has no phone number";
    case "not_suppressed":
      return `is suppressed on ${rule.channel}`;
    case "segment":
      return conditionWords(rule, segmentNames).replace(/^is in /, "is not in ");
    case "attribute":
    case "profile":
      return rule.op === "exists" ? conditionWords(rule, segmentNames).replace(/ is set$/, " is not set") : null;
    default:
      return null;
  }
}

/**
 * The children of an `and`, with "did X (ever)" and "did not do X in the last D days" read as
 * one lapse: "did X at least once, but not in the last D days".
 */
function andParts(children: readonly Rule[], segmentNames: Readonly<Record<string, string>>): string[] {
  const absorbed = new Set<Rule>();
  const parts: string[] = [];
  for (const child of children) {
    if (absorbed.has(child)) continue;
    if (child.kind === "activity" && child.op === "did" && child.withinDays === undefined) {
      const lapse = children.find(
        (other): other is Extract<ActivityCondition, { op: "did_not" }> =>
          !absorbed.has(other) && other.kind === "activity" && other.op === "did_not" && other.activity === child.activity,
      );
      if (lapse) {
        absorbed.add(lapse);
        parts.push(`${activityWords(child)}, but not ${lastDays(lapse.withinDays)}`);
        continue;
      }
    }
    parts.push(words(child, segmentNames, true));
  }
  return parts;
}

function words(rule: Rule, segmentNames: Readonly<Record<string, string>>, nested: boolean): string {
  switch (rule.kind) {
    case "and":
    case "or": {
      if (rule.children.length === 0) return rule.kind === "and" ? "everyone" : "no one";
      const parts = rule.kind === "and" ? andParts(rule.children, segmentNames) : rule.children.map((child) => words(child, segmentNames, true));
      const text = parts.join(rule.kind === "and" ? ", and " : ", or ");
      return nested && parts.length > 1 ? `(${text})` : text;
    }
    case "not":
      return negatedWords(rule.child, segmentNames) ?? `not (${words(rule.child, segmentNames, false)})`;
    default:
      return conditionWords(rule, segmentNames);
  }
}

/**
 * A rule in plain words, as the dashboard shows it beside the builder and a broadcast's review
 * echoes it: "has an active device, and did session_completed at least once, but not in the last
 * 7 days". `segmentNames` names the segments the rule refers to (by id).
 */
export function describeRule(rule: Rule, segmentNames: Readonly<Record<string, string>> = {}): string {
  return words(rule, segmentNames, false);
}
