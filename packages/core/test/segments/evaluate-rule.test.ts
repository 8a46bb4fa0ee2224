import { describe, expect, it } from "vitest";
import type { Channel } from "../../src/channels/channels.ts";
import { evaluateRule, type SegmentSubject } from "../../src/segments/evaluate-rule.ts";
import type { Rule } from "../../src/segments/rule-tree.ts";

const NOW = new Date("2026-11-30T12:00:00Z");
const daysAgo = (days: number, hours = 0) => new Date(NOW.getTime() - days * 86_400_000 - hours * 3_600_000);

const ada: SegmentSubject = {
  externalId: "ada",
  email: "ada@example.com",
  phone: null,
  locale: "en",
  timezone: null,
  attributes: {
    plan: "pro",
    age: 36,
    vip: true,
    tags: ["beta", "yoga"],
    bio: "likes yoga",
    "billing.cycle": "yearly",
    address: { city: "London" },
    last_test_at: "2026-10-01",
    signed_up_at: "2026-11-25T13:00:00+02:00",
    odd_date: "2026-02-30",
  },
  activeDeviceTokens: ["tok-a"],
  activities: [
    { name: "session_completed", occurredAt: daysAgo(10) },
    { name: "session_completed", occurredAt: daysAgo(3) },
    { name: "session_completed", occurredAt: daysAgo(2) },
    { name: "purchase", occurredAt: daysAgo(40) },
  ],
};

const bob: SegmentSubject = {
  externalId: "bob",
  email: null,
  phone: "+4915112345678",
  locale: null,
  timezone: "Europe/Berlin",
  attributes: { plan: "free", age: "36" },
  activeDeviceTokens: [],
  activities: [],
};

const suppressed = new Set(["email:ada@example.com", "push:tok-a"]);
const segments: Record<string, Rule> = {
  "1": { kind: "attribute", attribute: "plan", op: "eq", value: "pro" },
  "2": { kind: "segment", segmentId: "1" },
  "8": { kind: "segment", segmentId: "9" },
  "9": { kind: "segment", segmentId: "8" },
};
const context = {
  now: NOW,
  isSuppressed: (channel: Channel, address: string) => suppressed.has(`${channel}:${address}`),
  resolveSegment: (id: string) => segments[id] ?? null,
};

/** Who of [ada, bob] the rule selects. */
function members(rule: Rule): string[] {
  return [ada, bob].filter((user) => evaluateRule(rule, user, context)).map((user) => user.externalId);
}

describe("evaluateRule", () => {
  it.each<[string, Rule, string[]]>([
    ["eq compares with the value's type", { kind: "attribute", attribute: "age", op: "eq", value: 36 }, ["ada"]],
    ["eq on text", { kind: "attribute", attribute: "age", op: "eq", value: "36" }, ["bob"]],
    ["ne includes users without the attribute", { kind: "attribute", attribute: "vip", op: "ne", value: true }, ["bob"]],
    ["lt reads numbers only", { kind: "attribute", attribute: "age", op: "lt", value: 40 }, ["ada"]],
    ["gt", { kind: "attribute", attribute: "age", op: "gt", value: 36 }, []],
    ["contains a substring", { kind: "attribute", attribute: "bio", op: "contains", value: "yoga" }, ["ada"]],
    ["contains a list item", { kind: "attribute", attribute: "tags", op: "contains", value: "beta" }, ["ada"]],
    ["contains is not a substring of a list item", { kind: "attribute", attribute: "tags", op: "contains", value: "bet" }, []],
    ["in a list of values", { kind: "attribute", attribute: "plan", op: "in", value: ["free", "team"] }, ["bob"]],
    ["in: a list attribute matches any item", { kind: "attribute", attribute: "tags", op: "in", value: ["yoga", "pilates"] }, ["ada"]],
    ["in keeps types", { kind: "attribute", attribute: "age", op: "in", value: [36] }, ["ada"]],
    ["exists", { kind: "attribute", attribute: "vip", op: "exists" }, ["ada"]],
    ["a dotted name reads the key as written first", { kind: "attribute", attribute: "billing.cycle", op: "eq", value: "yearly" }, ["ada"]],
    ["then the nested path", { kind: "attribute", attribute: "address.city", op: "eq", value: "London" }, ["ada"]],
    ["a path into a list", { kind: "attribute", attribute: "tags.1", op: "eq", value: "yoga" }, ["ada"]],
    ["before days ago", { kind: "attribute", attribute: "last_test_at", op: "before", value: { daysAgo: 30 } }, ["ada"]],
    ["before an absolute date", { kind: "attribute", attribute: "last_test_at", op: "before", value: "2026-10-01" }, []],
    ["after an absolute instant", { kind: "attribute", attribute: "last_test_at", op: "after", value: "2026-09-30T23:59:59Z" }, ["ada"]],
    ["within the last days", { kind: "attribute", attribute: "signed_up_at", op: "within_last", value: 6 }, ["ada"]],
    ["within: 13:00+02:00 is 11:00Z, before the 12:00Z cut-off", { kind: "attribute", attribute: "signed_up_at", op: "within_last", value: 5 }, []],
    ["a day the calendar lacks is no date", { kind: "attribute", attribute: "odd_date", op: "before", value: { daysAgo: 0 } }, []],
    ["profile eq", { kind: "profile", field: "timezone", op: "eq", value: "Europe/Berlin" }, ["bob"]],
    ["profile ne includes a missing field", { kind: "profile", field: "email", op: "ne", value: "ada@example.com" }, ["bob"]],
    ["profile contains", { kind: "profile", field: "email", op: "contains", value: "@example." }, ["ada"]],
    ["profile in", { kind: "profile", field: "external_id", op: "in", value: ["bob", "carol"] }, ["bob"]],
    ["profile exists", { kind: "profile", field: "locale", op: "exists" }, ["ada"]],
    ["did at least 3 times", { kind: "activity", activity: "session_completed", op: "did", atLeast: 3 }, ["ada"]],
    ["did at least 3 times in 7 days", { kind: "activity", activity: "session_completed", op: "did", atLeast: 3, withinDays: 7 }, []],
    ["did at least twice in 7 days", { kind: "activity", activity: "session_completed", op: "did", atLeast: 2, withinDays: 7 }, ["ada"]],
    ["did not in 30 days", { kind: "activity", activity: "purchase", op: "did_not", withinDays: 30 }, ["ada", "bob"]],
    ["never", { kind: "activity", activity: "purchase", op: "never" }, ["bob"]],
    ["has an active device", { kind: "has_active_device" }, ["ada"]],
    ["has an email", { kind: "has_email" }, ["ada"]],
    ["has a phone", { kind: "has_phone" }, ["bob"]],
    ["not suppressed on email (no address is not suppressed)", { kind: "not_suppressed", channel: "email" }, ["bob"]],
    ["not suppressed on push: no active token suppressed", { kind: "not_suppressed", channel: "push" }, ["bob"]],
    ["not suppressed on sms", { kind: "not_suppressed", channel: "sms" }, ["ada", "bob"]],
    ["in another segment, through another", { kind: "segment", segmentId: "2" }, ["ada"]],
    ["not", { kind: "not", child: { kind: "has_email" } }, ["bob"]],
    ["or", { kind: "or", children: [{ kind: "has_email" }, { kind: "has_phone" }] }, ["ada", "bob"]],
    ["an empty and is everyone", { kind: "and", children: [] }, ["ada", "bob"]],
    ["an empty or is no one", { kind: "or", children: [] }, []],
  ])("%s", (_name, rule, expected) => {
    expect(members(rule)).toEqual(expected);
  });

  it("counts a window from now, inclusive at its start", () => {
    const user = { ...bob, activities: [{ name: "x", occurredAt: daysAgo(7) }] };
    expect(evaluateRule({ kind: "activity", activity: "x", op: "did", atLeast: 1, withinDays: 7 }, user, context)).toBe(true);
    const older = { ...bob, activities: [{ name: "x", occurredAt: new Date(daysAgo(7).getTime() - 1) }] };
    expect(evaluateRule({ kind: "activity", activity: "x", op: "did", atLeast: 1, withinDays: 7 }, older, context)).toBe(false);
  });

  it("refuses to follow a cycle of segments or one that is missing", () => {
    expect(() => evaluateRule({ kind: "segment", segmentId: "8" }, ada, context)).toThrow("segment 8 is nested too deep or includes itself (8 → 9 → 8)");
    expect(() => evaluateRule({ kind: "segment", segmentId: "77" }, ada, context)).toThrow("there is no segment 77");
  });
});
