import type { Rule } from "@herald/core";
import { describe, expect, it } from "vitest";
import { MAX_COMPILED_CONDITIONS, SegmentCompileError, compileSegment } from "../../src/segments/compile-segment.ts";

const NOW = new Date("2026-11-30T12:00:00Z");
const none = { now: NOW, resolveSegment: () => null };
const squash = (sql: string) => sql.replace(/\s+/g, " ");

describe("compileSegment", () => {
  it("selects user ids from one query over herald.users", () => {
    const { sql, params } = compileSegment({ kind: "and", children: [] }, none);
    expect(sql).toBe("SELECT u.id AS user_id FROM herald.users u WHERE true");
    expect(params).toEqual([]);
    expect(compileSegment({ kind: "or", children: [] }, none).sql).toMatch(/WHERE false$/);
  });

  it("binds every value, attribute name and path; none is written into the SQL", () => {
    const injection = "'; DROP TABLE herald.users; --";
    const rule: Rule = {
      kind: "and",
      children: [
        { kind: "attribute", attribute: "plan", op: "eq", value: injection },
        { kind: "attribute", attribute: "billing.plan_tier", op: "in", value: [injection, 3] },
        { kind: "profile", field: "email", op: "contains", value: injection },
        { kind: "activity", activity: "session_completed", op: "did", atLeast: 3, withinDays: 7 },
      ],
    };
    const { sql, params } = compileSegment(rule, none);
    for (const text of ["DROP", "plan", "billing", "session_completed", "2026"]) expect(sql).not.toContain(text);
    expect(params).toEqual([
      "plan",
      JSON.stringify(injection),
      "billing.plan_tier",
      ["billing", "plan_tier"],
      [injection],
      JSON.stringify([injection, 3]),
      injection,
      "session_completed",
      "2026-11-23T12:00:00.000Z",
      2,
    ]);
    expect(squash(sql)).toContain("coalesce(u.attributes -> $3::text, u.attributes #> $4::text[])");
    expect(squash(sql)).toContain(
      "EXISTS (SELECT 1 FROM herald.activities a WHERE a.user_id = u.id AND a.name = $8::text AND a.occurred_at >= $9::timestamptz OFFSET $10::bigint)",
    );
  });

  it("renders whole-history behaviour as EXISTS on the summary table and keeps NOT two-valued", () => {
    const rule: Rule = {
      kind: "not",
      child: {
        kind: "or",
        children: [
          { kind: "activity", activity: "purchase", op: "never" },
          { kind: "attribute", attribute: "age", op: "lt", value: 30 },
        ],
      },
    };
    expect(squash(compileSegment(rule, none).sql)).toBe(
      "SELECT u.id AS user_id FROM herald.users u WHERE NOT (NOT EXISTS (SELECT 1 FROM herald.activity_summaries s WHERE s.name = $1::text AND s.user_id = u.id) OR " +
        "coalesce(CASE WHEN jsonb_typeof((u.attributes -> $2::text)) = 'number' THEN ((u.attributes -> $2::text))::numeric < $3::numeric END, false))",
    );
  });

  it("reads ever, at least N ever and not lately from the summary, and a count in a window from the raw rows", () => {
    const rule: Rule = {
      kind: "and",
      children: [
        { kind: "activity", activity: "open", op: "did", atLeast: 1 },
        { kind: "activity", activity: "open", op: "did", atLeast: 5 },
        { kind: "activity", activity: "open", op: "did_not", withinDays: 7 },
        { kind: "activity", activity: "open", op: "did", atLeast: 1, withinDays: 3 },
      ],
    };
    const { sql, params } = compileSegment(rule, { ...none, now: new Date("2026-12-01T00:00:00.000Z") });
    expect(squash(sql)).toBe(
      "SELECT u.id AS user_id FROM herald.users u WHERE (" +
        "EXISTS (SELECT 1 FROM herald.activity_summaries s WHERE s.name = $1::text AND s.user_id = u.id) AND " +
        "EXISTS (SELECT 1 FROM herald.activity_summaries s WHERE s.name = $2::text AND s.user_id = u.id AND s.count >= $3::bigint) AND " +
        "NOT EXISTS (SELECT 1 FROM herald.activity_summaries s WHERE s.name = $4::text AND s.user_id = u.id AND s.last_at >= $5::timestamptz) AND " +
        "EXISTS (SELECT 1 FROM herald.activities a WHERE a.user_id = u.id AND a.name = $6::text AND a.occurred_at >= $7::timestamptz))",
    );
    expect(params).toEqual(["open", "open", 5, "open", "2026-11-24T00:00:00.000Z", "open", "2026-11-28T00:00:00.000Z"]);
  });

  it("counts date windows back from now", () => {
    const { params } = compileSegment(
      {
        kind: "and",
        children: [
          { kind: "attribute", attribute: "last_test_at", op: "before", value: { daysAgo: 30 } },
          { kind: "attribute", attribute: "last_test_at", op: "after", value: "2026-01-31" },
          { kind: "attribute", attribute: "last_test_at", op: "within_last", value: 1 },
        ],
      },
      none,
    );
    expect(params).toEqual(["last_test_at", "2026-10-31T12:00:00.000Z", "2026-01-31", "2026-11-29T12:00:00.000Z", NOW.toISOString()]);
  });

  it("reads each date attribute once per user, in a LATERAL the planner cannot fold back into every use", () => {
    const { sql, params } = compileSegment(
      {
        kind: "or",
        children: [
          { kind: "attribute", attribute: "last_test_at", op: "before", value: { daysAgo: 30 } },
          { kind: "not", child: { kind: "attribute", attribute: "last_test_at", op: "after", value: "2026-01-31" } },
          { kind: "attribute", attribute: "billing.renews", op: "within_last", value: 1 },
        ],
      },
      none,
    );
    expect(sql).toBe(
      "SELECT u.id AS user_id FROM herald.users u" +
        " CROSS JOIN LATERAL (SELECT herald.attribute_instant(u.attributes ->> $1::text) AS at OFFSET 0) d1" +
        " CROSS JOIN LATERAL (SELECT herald.attribute_instant(coalesce(u.attributes -> $4::text, u.attributes #> $5::text[]) #>> '{}') AS at OFFSET 0) d2" +
        " WHERE (coalesce(d1.at < $2::timestamptz, false) OR NOT coalesce(d1.at > herald.attribute_instant($3::text), false) OR " +
        "coalesce(tstzrange($6::timestamptz, $7::timestamptz, '[]') @> d2.at, false))",
    );
    expect(params).toEqual(["last_test_at", "2026-10-31T12:00:00.000Z", "2026-01-31", "billing.renews", ["billing", "renews"], "2026-11-29T12:00:00.000Z", NOW.toISOString()]);
  });

  it("inlines a named segment's rule", () => {
    const segments: Record<string, Rule> = { "7": { kind: "has_email" }, "8": { kind: "and", children: [{ kind: "segment", segmentId: "7" }, { kind: "has_phone" }] } };
    const { sql } = compileSegment({ kind: "segment", segmentId: "8" }, { now: NOW, resolveSegment: (id) => segments[id] ?? null });
    expect(sql).toBe("SELECT u.id AS user_id FROM herald.users u WHERE ((u.email IS NOT NULL) AND (u.phone IS NOT NULL))");
  });

  it("refuses a missing segment, a cycle and nesting past the limit, naming the node", () => {
    const cyclic: Record<string, Rule> = { "1": { kind: "segment", segmentId: "2" }, "2": { kind: "segment", segmentId: "1" } };
    const compile = (rule: Rule, segments: Record<string, Rule>) => () => compileSegment(rule, { now: NOW, resolveSegment: (id) => segments[id] ?? null });
    expect(compile({ kind: "or", children: [{ kind: "has_email" }, { kind: "segment", segmentId: "9" }] }, {})).toThrow("rule.children[1]: there is no segment 9");
    expect(compile({ kind: "not", child: { kind: "segment", segmentId: "1" } }, cyclic)).toThrow("rule.child: segment 1 includes itself (1 → 2 → 1)");
    const chain = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [String(i + 1), { kind: "segment", segmentId: String(i + 2) } as Rule]));
    expect(compile({ kind: "segment", segmentId: "1" }, chain)).toThrow(SegmentCompileError);
    expect(compile({ kind: "segment", segmentId: "1" }, chain)).toThrow("rule: segments nest more than 10 deep (1 → 2 → 3 → 4 → 5 → 6 → 7 → 8 → 9 → 10 → 11)");
  });

  it("refuses a rule that named segments multiply past the compiled limit", () => {
    // Each level names the next four times: 4^6 conditions from six small rules.
    const next = (i: number): Rule => ({ kind: "segment", segmentId: String(i + 2) });
    const fanning = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [String(i + 1), { kind: "or", children: [next(i), next(i), next(i), next(i)] } as Rule]));
    fanning["7"] = { kind: "has_email" };
    expect(() => compileSegment({ kind: "segment", segmentId: "1" }, { now: NOW, resolveSegment: (id) => fanning[id] ?? null })).toThrow(
      `rule: the rule expands to more than ${MAX_COMPILED_CONDITIONS} conditions through the segments it names`,
    );
  });
});
