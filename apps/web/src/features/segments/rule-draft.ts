import type { ActivityCondition, AttributeCondition, AttributeOp, ProfileField, ProfileOp, Rule, RuleCondition } from "@herald/core/browser";

/** The kinds of condition the builder offers, in the order its picker lists them. */
export type ConditionKind = RuleCondition["kind"];
export type ActivityOp = ActivityCondition["op"];
export type SuppressionChannel = "push" | "email" | "sms";
/** How an equality's value is read: "42" the text or 42 the number. */
export type ValueType = "text" | "number" | "boolean";
/** A date condition's value: a calendar date, or a number of days before the segment is evaluated. */
export type DateMode = "date" | "daysAgo";

/**
 * One condition as the builder edits it: every input's text, whatever the kind, so switching the
 * kind or the operator back and forth keeps what was typed. `ruleFromDraft` reads what the kind needs.
 */
export type ConditionDraft = {
  id: string;
  node: "condition";
  negated: boolean;
  kind: ConditionKind;
  attribute: string;
  attributeOp: AttributeOp;
  valueType: ValueType;
  value: string;
  dateMode: DateMode;
  field: ProfileField;
  profileOp: ProfileOp;
  activity: string;
  activityOp: ActivityOp;
  atLeast: string;
  /** "did … ever" rather than "did … in the last N days". */
  didEver: boolean;
  withinDays: string;
  channel: SuppressionChannel;
  segmentId: string;
};

/** An and/or group; `negated` wraps it in a `not`. */
export type GroupDraft = { id: string; node: "group"; negated: boolean; match: "and" | "or"; children: NodeDraft[] };
export type NodeDraft = GroupDraft | ConditionDraft;

/** Which input of which condition a problem is about: `${conditionId}:${input}`. */
export type DraftProblems = ReadonlyMap<string, string>;
/** An input of a condition; "node" is the whole condition or group, for the server's refusals. */
export type DraftInput = "attribute" | "value" | "activity" | "atLeast" | "withinDays" | "segmentId" | "node";

let counter = 0;
const nextId = () => `n${++counter}`;

export function problemKey(id: string, input: DraftInput): string {
  return `${id}:${input}`;
}

export function newCondition(kind: ConditionKind = "activity"): ConditionDraft {
  return {
    id: nextId(),
    node: "condition",
    negated: false,
    kind,
    attribute: "",
    attributeOp: "eq",
    valueType: "text",
    value: "",
    dateMode: "daysAgo",
    field: "email",
    profileOp: "exists",
    activity: "",
    activityOp: "did",
    atLeast: "1",
    didEver: false,
    withinDays: "7",
    channel: "email",
    segmentId: "",
  };
}

export function newGroup(match: "and" | "or" = "and", children: NodeDraft[] = [newCondition()]): GroupDraft {
  return { id: nextId(), node: "group", negated: false, match, children };
}

/** The root is always a group, so there is one place to add the first condition. */
export function draftFromRule(rule: Rule): GroupDraft {
  const node = nodeFromRule(rule);
  if (node.node === "group") return node;
  return newGroup("and", [node]);
}

function nodeFromRule(rule: Rule): NodeDraft {
  switch (rule.kind) {
    case "and":
    case "or":
      return { id: nextId(), node: "group", negated: false, match: rule.kind, children: rule.children.map(nodeFromRule) };
    case "not": {
      // not(not(x)) is x: the builder has one Negate switch per node.
      const inner = nodeFromRule(rule.child);
      return { ...inner, negated: !inner.negated };
    }
    default:
      return conditionFromRule(rule);
  }
}

function conditionFromRule(c: RuleCondition): ConditionDraft {
  const draft = { ...newCondition(c.kind) };
  switch (c.kind) {
    case "attribute":
      return { ...draft, attribute: c.attribute, attributeOp: c.op, ...attributeValueFields(c) };
    case "profile":
      return { ...draft, field: c.field, profileOp: c.op, value: "value" in c ? (Array.isArray(c.value) ? c.value.join(", ") : c.value) : "" };
    case "activity":
      return {
        ...draft,
        activity: c.activity,
        activityOp: c.op,
        atLeast: c.op === "did" ? String(c.atLeast) : draft.atLeast,
        didEver: c.op === "did" && c.withinDays === undefined,
        withinDays: c.op !== "never" && c.withinDays !== undefined ? String(c.withinDays) : draft.withinDays,
      };
    case "not_suppressed":
      return { ...draft, channel: c.channel };
    case "segment":
      return { ...draft, segmentId: c.segmentId };
    default:
      return draft;
  }
}

function attributeValueFields(c: AttributeCondition): Pick<ConditionDraft, "value" | "valueType" | "dateMode"> {
  const base = { valueType: "text" as ValueType, dateMode: "daysAgo" as DateMode };
  switch (c.op) {
    case "eq":
    case "ne":
      return { ...base, value: String(c.value), valueType: typeof c.value === "number" ? "number" : typeof c.value === "boolean" ? "boolean" : "text" };
    case "in":
      return { ...base, value: c.value.join(", "), valueType: c.value.every((v) => typeof v === "number") ? "number" : "text" };
    case "before":
    case "after":
      return typeof c.value === "string" ? { ...base, dateMode: "date", value: c.value.slice(0, 10) } : { ...base, value: String(c.value.daysAgo) };
    case "exists":
      return { ...base, value: "" };
    default:
      return { ...base, value: String(c.value) };
  }
}

/** How many conditions the draft holds. */
export function countConditions(node: NodeDraft): number {
  return node.node === "condition" ? 1 : node.children.reduce((sum, child) => sum + countConditions(child), 0);
}

/** The draft with the node `id` replaced by what `change` returns (or removed, when it returns null). */
export function updateNode(root: GroupDraft, id: string, change: (node: NodeDraft) => NodeDraft | null): GroupDraft {
  const walk = (node: NodeDraft): NodeDraft | null => {
    if (node.id === id) return change(node);
    if (node.node === "condition") return node;
    const children = node.children.map(walk).filter((child): child is NodeDraft => child !== null);
    return { ...node, children };
  };
  const next = walk(root);
  return next && next.node === "group" ? next : root;
}
