import { describe, expect, it } from "vitest";
import { describeRule } from "../../src/segments/describe-rule.ts";
import type { Rule } from "../../src/segments/rule-tree.ts";
import { SEGMENT_PRESETS } from "../../src/segments/segment-presets.ts";

describe("describeRule", () => {
  it("reads the presets as the seed describes them", () => {
    expect(Object.fromEntries(SEGMENT_PRESETS.map((p) => [p.key, describeRule(p.rule)]))).toEqual({
      all_with_device: "has an active device",
      inactive_7d: "has an active device, and did session_completed at least once, but not in the last 7 days",
      never_sessioned: "has an active device, and never did session_completed",
      test_due: "has an active device, and last_test_at is more than 30 days ago",
    });
  });

  it.each<[string, Rule, string]>([
    ["eq on text", { kind: "attribute", attribute: "plan", op: "eq", value: "pro" }, 'plan is "pro"'],
    ["eq on a boolean", { kind: "attribute", attribute: "vip", op: "eq", value: true }, "vip is true"],
    ["ne", { kind: "attribute", attribute: "plan", op: "ne", value: "free" }, 'plan is not "free"'],
    ["lt", { kind: "attribute", attribute: "age", op: "lt", value: 30 }, "age is less than 30"],
    ["gt", { kind: "attribute", attribute: "age", op: "gt", value: 17.5 }, "age is more than 17.5"],
    ["contains", { kind: "attribute", attribute: "bio", op: "contains", value: "yoga" }, 'bio contains "yoga"'],
    ["in", { kind: "attribute", attribute: "country", op: "in", value: ["DE", "FR", 3] }, 'country is one of "DE", "FR", 3'],
    ["exists", { kind: "attribute", attribute: "billing.plan", op: "exists" }, "billing.plan is set"],
    ["before a date", { kind: "attribute", attribute: "d", op: "before", value: "2026-01-31" }, "d is before 2026-01-31"],
    ["after days ago", { kind: "attribute", attribute: "d", op: "after", value: { daysAgo: 1 } }, "d is less than 1 day ago"],
    ["before now", { kind: "attribute", attribute: "d", op: "before", value: { daysAgo: 0 } }, "d is in the past"],
    ["within the last", { kind: "attribute", attribute: "d", op: "within_last", value: 14 }, "d is within the last 14 days"],
    ["a profile field", { kind: "profile", field: "timezone", op: "exists" }, "time zone is set"],
    ["a profile list", { kind: "profile", field: "locale", op: "in", value: ["de", "fr"] }, 'locale is one of "de", "fr"'],
    ["did, counted and windowed", { kind: "activity", activity: "purchase", op: "did", atLeast: 3, withinDays: 30 }, "did purchase at least 3 times in the last 30 days"],
    ["did once in a day", { kind: "activity", activity: "app_opened", op: "did", atLeast: 1, withinDays: 1 }, "did app_opened at least once in the last day"],
    ["did not", { kind: "activity", activity: "purchase", op: "did_not", withinDays: 90 }, "did not do purchase in the last 90 days"],
    ["never", { kind: "activity", activity: "purchase", op: "never" }, "never did purchase"],
    ["email", { kind: "has_email" }, "has an email address"],
    ["phone", { kind: "has_phone" }, "has a phone number"],
    ["not suppressed", { kind: "not_suppressed", channel: "sms" }, "is not suppressed on sms"],
    ["an unnamed segment", { kind: "segment", segmentId: "41" }, "is in segment #41"],
    ["everyone", { kind: "and", children: [] }, "everyone"],
    ["no one", { kind: "or", children: [] }, "no one"],
  ])("%s", (_name, rule, words) => {
    expect(describeRule(rule)).toBe(words);
  });

  it("names segments, brackets nested groups and negates naturally where it can", () => {
    const rule: Rule = {
      kind: "or",
      children: [
        { kind: "and", children: [{ kind: "has_email" }, { kind: "not", child: { kind: "segment", segmentId: "3" } }] },
        { kind: "not", child: { kind: "has_phone" } },
        { kind: "not", child: { kind: "attribute", attribute: "plan", op: "exists" } },
        { kind: "not", child: { kind: "not_suppressed", channel: "email" } },
        { kind: "not", child: { kind: "or", children: [{ kind: "has_active_device" }, { kind: "attribute", attribute: "age", op: "lt", value: 18 }] } },
      ],
    };
    expect(describeRule(rule, { "3": "VIPs" })).toBe(
      '(has an email address, and is not in segment "VIPs"), or has no phone number, or plan is not set, or is suppressed on email, or not (has an active device, or age is less than 18)',
    );
  });

  it("reads a lapse only for the same activity, and keeps other conditions in order", () => {
    const rule: Rule = {
      kind: "and",
      children: [
        { kind: "activity", activity: "purchase", op: "did", atLeast: 2 },
        { kind: "has_email" },
        { kind: "activity", activity: "app_opened", op: "did_not", withinDays: 3 },
        { kind: "activity", activity: "purchase", op: "did_not", withinDays: 30 },
      ],
    };
    expect(describeRule(rule)).toBe("did purchase at least 2 times, but not in the last 30 days, and has an email address, and did not do app_opened in the last 3 days");
  });
});
