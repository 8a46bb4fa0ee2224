import { describe, expect, it } from "vitest";
import { describeRuleProblems, formatRulePath, parseRule } from "../../src/segments/parse-rule.ts";
import type { Rule } from "../../src/segments/rule-tree.ts";

/** The problems of a rule as "path: message" lines; [] when it parses. */
function problems(input: unknown): string[] {
  const parsed = parseRule(input);
  return parsed.ok ? [] : parsed.problems.map((p) => `${p.path}: ${p.message}`);
}

const and = (...children: unknown[]) => ({ kind: "and", children });
const attr = (op: string, value?: unknown, attribute = "plan") => ({ kind: "attribute", attribute, op, ...(value === undefined ? {} : { value }) });

/** One valid node of every kind and operator. */
const EVERY_KIND: Rule[] = [
  { kind: "attribute", attribute: "plan", op: "eq", value: "pro" },
  { kind: "attribute", attribute: "vip", op: "eq", value: true },
  { kind: "attribute", attribute: "plan", op: "ne", value: "free" },
  { kind: "attribute", attribute: "age", op: "lt", value: 30 },
  { kind: "attribute", attribute: "age", op: "gt", value: 17.5 },
  { kind: "attribute", attribute: "bio", op: "contains", value: "yoga" },
  { kind: "attribute", attribute: "country", op: "in", value: ["DE", "FR", 3] },
  { kind: "attribute", attribute: "billing.plan", op: "exists" },
  { kind: "attribute", attribute: "last_test_at", op: "before", value: "2026-01-31" },
  { kind: "attribute", attribute: "last_test_at", op: "after", value: "2026-01-31T09:00:00+01:00" },
  { kind: "attribute", attribute: "last_test_at", op: "before", value: { daysAgo: 30 } },
  { kind: "attribute", attribute: "signed_up_at", op: "within_last", value: 14 },
  { kind: "profile", field: "email", op: "contains", value: "@acme.com" },
  { kind: "profile", field: "locale", op: "in", value: ["de", "de-AT"] },
  { kind: "profile", field: "timezone", op: "exists" },
  { kind: "profile", field: "external_id", op: "eq", value: "u-1" },
  { kind: "activity", activity: "session_completed", op: "did", atLeast: 3, withinDays: 7 },
  { kind: "activity", activity: "session_completed", op: "did_not", withinDays: 7 },
  { kind: "activity", activity: "session_completed", op: "never" },
  { kind: "has_active_device" },
  { kind: "has_email" },
  { kind: "has_phone" },
  { kind: "not_suppressed", channel: "email" },
  { kind: "segment", segmentId: "12" },
  { kind: "not", child: { kind: "or", children: [] } },
];

describe("parseRule", () => {
  it("accepts every kind of condition and group, unchanged", () => {
    const rule = { kind: "and", children: EVERY_KIND };
    expect(parseRule(rule)).toEqual({ ok: true, rule });
  });

  it("reads a did without atLeast as at least once", () => {
    expect(parseRule({ kind: "activity", activity: "app_opened", op: "did" })).toEqual({
      ok: true,
      rule: { kind: "activity", activity: "app_opened", op: "did", atLeast: 1 },
    });
  });

  it("names the node's path for a wrong value type", () => {
    expect(problems(and({ kind: "has_email" }, { kind: "has_phone" }, attr("lt", "30", "age")))).toEqual(["rule.children[2].value: must be a number"]);
    expect(problems(attr("eq", { nested: 1 }))).toEqual(["rule.value: must be a string, number or boolean"]);
    expect(problems(attr("in", []))).toEqual(["rule.value: must list at least one value"]);
    expect(problems(attr("in", "DE"))).toEqual(["rule.value: must be a list of strings or numbers"]);
    expect(problems(attr("within_last", 2.5))).toEqual(["rule.value: must be a whole number of days"]);
    expect(problems({ kind: "activity", activity: "x", op: "did", atLeast: 0 })).toEqual(["rule.atLeast: must be at least 1"]);
  });

  it("refuses an unknown operator, kind, field or channel, listing the allowed ones", () => {
    expect(problems(and(attr("matches", "x")))).toEqual([
      'rule.children[0].op: "matches" is not an attribute operator: use eq, ne, lt, gt, contains, in, exists, before, after, within_last',
    ]);
    expect(problems({ kind: "or", children: [{ kind: "has_email" }, { kind: "xor" }] })).toEqual([
      'rule.children[1].kind: "xor" is not a kind of rule: use and, or, not, attribute, profile, activity, has_active_device, has_email, has_phone, not_suppressed, segment',
    ]);
    expect(problems({ kind: "profile", field: "name", op: "eq", value: "x" })).toEqual([
      'rule.field: "name" is not a profile field: use email, phone, locale, timezone, external_id',
    ]);
    expect(problems({ kind: "profile", field: "email", op: "lt", value: "x" })).toEqual([
      'rule.op: "lt" is not a profile operator: use eq, ne, contains, in, exists',
    ]);
    expect(problems({ kind: "activity", activity: "x", op: "did_twice" })[0]).toMatch(/^rule\.op: "did_twice" is not an activity operator/);
    expect(problems({ kind: "not_suppressed", channel: "fax" })).toEqual(['rule.channel: "fax" is not a channel: use push, email, sms']);
    expect(problems({ kind: "and", children: [{}] })[0]).toMatch(/^rule\.children\[0\]\.kind: is missing: use and, or, not/);
    expect(problems(and(7))).toEqual(["rule.children[0]: must be an object: a group (and, or, not) or a condition"]);
  });

  it("refuses attribute names outside [a-zA-Z_][a-zA-Z0-9_.]*", () => {
    for (const name of ["9lives", "plan-tier", "plan tier", "", "a'b", "attributes->>'x'"]) {
      expect(problems(attr("exists", undefined, name))[0]).toMatch(/^rule\.attribute: must start with a letter or "_"/);
    }
    for (const name of ["_x", "plan.tier", "a1.b_2"]) expect(problems(attr("exists", undefined, name))).toEqual([]);
  });

  it("refuses dates that are not ISO dates or days the calendar lacks", () => {
    for (const value of ["2026-02-30", "31/01/2026", "2026-01-31T25:00", "yesterday", 20260131]) {
      expect(problems(attr("before", value, "d"))).toEqual([
        'rule.value: must be an ISO date such as "2026-01-31" (or a date-time such as "2026-01-31T09:00:00Z"), or { "daysAgo": N }',
      ]);
    }
    expect(problems(attr("after", { daysAgo: -1 }, "d"))).toEqual(["rule.value.daysAgo: must be at least 0 days"]);
  });

  it("names fields a node does not take", () => {
    expect(problems({ kind: "has_email", value: true })).toEqual(['rule: does not take "value"']);
    expect(problems(attr("exists", "x"))).toEqual(['rule: does not take "value"']);
  });

  it("refuses a rule nested more than 10 levels deep at the first node too deep", () => {
    let rule: unknown = { kind: "has_email" };
    for (let i = 0; i < 9; i++) rule = { kind: "not", child: rule };
    expect(problems(rule)).toEqual([]);
    expect(problems({ kind: "not", child: rule })).toEqual([
      "rule.child.child.child.child.child.child.child.child.child.child: is nested 11 levels deep: a rule may be at most 10 levels deep",
    ]);
  });

  it("refuses a tree nested 100,000 deep without overflowing the stack", () => {
    let rule: unknown = { kind: "has_email" };
    for (let i = 0; i < 100_000; i++) rule = { kind: "and", children: [rule] };
    expect(problems(rule)).toHaveLength(1);
    expect(problems(rule)[0]).toMatch(/is nested 11 levels deep/);
  });

  it("refuses more than 100 conditions or 100 groups", () => {
    const conditions = (n: number) => Array.from({ length: n }, () => ({ kind: "has_email" }));
    expect(problems(and(...conditions(100)))).toEqual([]);
    expect(problems(and(...conditions(101)))).toEqual(["rule: has 101 conditions: a rule may have at most 100"]);
    expect(problems(and(...Array.from({ length: 100 }, () => and())))).toEqual(["rule: has 101 groups: a rule may have at most 100"]);
  });

  it("refuses a rule over 32 KiB as JSON, and one whose value nests too deep to measure", () => {
    const list = (n: number) => attr("in", Array.from({ length: 100 }, (_, i) => `${"x".repeat(n)}${i}`));
    expect(problems(and(list(300)))).toEqual([]);
    expect(problems(and(list(300), list(300)))).toEqual(["rule: is 60 KiB as JSON: a rule may be at most 32 KiB"]);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(problems(attr("in", deep))).toContain("rule: is too deeply nested as JSON: a rule may be at most 32 KiB");
  });

  it("formats paths and problems for messages", () => {
    expect(formatRulePath(["children", 2, "child", "value"])).toBe("rule.children[2].child.value");
    expect(formatRulePath([])).toBe("rule");
    const parsed = parseRule(and(attr("lt", "x", "age"), { kind: "has_phone", x: 1 }));
    expect(!parsed.ok && describeRuleProblems(parsed.problems)).toBe('rule.children[0].value: must be a number; rule.children[1]: does not take "x"');
    expect(!parsed.ok && parsed.problems[0]!.at).toEqual(["children", 0, "value"]);
  });
});
