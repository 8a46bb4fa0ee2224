import { SEGMENT_PRESETS, evaluateRule, type Rule } from "@herald/core";
import { beforeAll, describe, expect, it } from "vitest";
import { evaluateGates } from "../../src/dispatch/gates.ts";
import { countSegment, createSegment, sampleSegment, segmentQuery } from "../../src/index.ts";
import { evaluationContext, insertPopulation, subjectOf, type Population } from "../support/segment-population.ts";
import { useTestDatabase } from "../support/test-database.ts";

const NOW = new Date("2026-11-30T12:00:00Z");
const ago = (days: number) => new Date(NOW.getTime() - days * 86_400_000);
const INJECTION = "'; DROP TABLE herald.users; --";

/** Six people whose every fact is written out, so each expected set below is read off by hand. */
const POPULATION: Population = {
  users: [
    {
      externalId: "ada",
      email: "ada@acme.com",
      locale: "en",
      timezone: "Europe/London",
      attributes: { plan: "pro", age: 36, tags: ["beta", "yoga"], last_test_at: "2026-10-01", vip: true, "billing.cycle": "yearly", address: { city: "London" } },
      devices: [{ token: "tok-ada", active: true }],
      activities: [
        { name: "session_completed", occurredAt: ago(1) },
        { name: "session_completed", occurredAt: ago(3) },
        { name: "session_completed", occurredAt: ago(10) },
        { name: "purchase", occurredAt: ago(40) },
      ],
    },
    {
      externalId: "bob",
      email: "bob@example.com",
      phone: "+4915112345678",
      locale: "de",
      attributes: { plan: "free", age: "36", last_test_at: "2026-11-20T09:00:00+01:00" },
      devices: [{ token: "tok-bob", active: true }],
      activities: [{ name: "session_completed", occurredAt: ago(9) }],
    },
    {
      externalId: "cai",
      phone: "+4915100000001",
      locale: "pt-BR",
      attributes: { plan: "team", age: 17, tags: "beta", last_test_at: "2026-02-30" },
      devices: [{ token: "tok-cai", active: false }],
      activities: [{ name: "app_opened", occurredAt: ago(0.5) }],
    },
    {
      externalId: "dee",
      email: "dee@acme.com",
      attributes: { plan: "pro", age: 52.5, address: { city: "Paris" }, last_test_at: "2025-12-01T00:00:00Z" },
      devices: [
        { token: "tok-dee-1", active: true },
        { token: "tok-dee-2", active: true },
      ],
      activities: [
        { name: "purchase", occurredAt: ago(2) },
        { name: "purchase", occurredAt: ago(5) },
        { name: "purchase", occurredAt: ago(29) },
        { name: "purchase", occurredAt: ago(31) },
      ],
    },
    { externalId: "eve", email: "eve@example.com", activities: [{ name: "session_completed", occurredAt: ago(100) }] },
    { externalId: "fay", attributes: { plan: INJECTION }, devices: [{ token: "tok-fay", active: true }] },
  ],
  suppressions: [
    { channel: "email", address: "ada@acme.com" },
    { channel: "sms", address: "+4915112345678" },
    { channel: "push", address: "tok-dee-2" },
  ],
};

const CASES: Array<[string, Rule, string[]]> = [
  ["attribute = a string", { kind: "attribute", attribute: "plan", op: "eq", value: "pro" }, ["ada", "dee"]],
  ["attribute = a number (the string \"36\" is not 36)", { kind: "attribute", attribute: "age", op: "eq", value: 36 }, ["ada"]],
  ["attribute ≠ (no attribute counts as different)", { kind: "attribute", attribute: "plan", op: "ne", value: "pro" }, ["bob", "cai", "eve", "fay"]],
  ["attribute <", { kind: "attribute", attribute: "age", op: "lt", value: 40 }, ["ada", "cai"]],
  ["attribute >", { kind: "attribute", attribute: "age", op: "gt", value: 40 }, ["dee"]],
  ["attribute contains (a list item, or a substring)", { kind: "attribute", attribute: "tags", op: "contains", value: "beta" }, ["ada", "cai"]],
  ["attribute in", { kind: "attribute", attribute: "plan", op: "in", value: ["team", "free"] }, ["bob", "cai"]],
  ["attribute in, on a list", { kind: "attribute", attribute: "tags", op: "in", value: ["yoga"] }, ["ada"]],
  ["attribute exists, nested", { kind: "attribute", attribute: "address.city", op: "exists" }, ["ada", "dee"]],
  ["attribute = on a nested path", { kind: "attribute", attribute: "address.city", op: "eq", value: "Paris" }, ["dee"]],
  ["attribute = on a dotted key", { kind: "attribute", attribute: "billing.cycle", op: "eq", value: "yearly" }, ["ada"]],
  ["date before 30 days ago (2026-02-30 is no date)", { kind: "attribute", attribute: "last_test_at", op: "before", value: { daysAgo: 30 } }, ["ada", "dee"]],
  ["date after a date", { kind: "attribute", attribute: "last_test_at", op: "after", value: "2026-11-01" }, ["bob"]],
  ["date within the last 14 days", { kind: "attribute", attribute: "last_test_at", op: "within_last", value: 14 }, ["bob"]],
  ["profile contains", { kind: "profile", field: "email", op: "contains", value: "@acme.com" }, ["ada", "dee"]],
  ["profile in", { kind: "profile", field: "locale", op: "in", value: ["de", "pt-BR"] }, ["bob", "cai"]],
  ["profile exists", { kind: "profile", field: "phone", op: "exists" }, ["bob", "cai"]],
  ["profile ≠", { kind: "profile", field: "email", op: "ne", value: "ada@acme.com" }, ["bob", "cai", "dee", "eve", "fay"]],
  ["did, ever", { kind: "activity", activity: "session_completed", op: "did", atLeast: 1 }, ["ada", "bob", "eve"]],
  ["did at least twice in 7 days", { kind: "activity", activity: "session_completed", op: "did", atLeast: 2, withinDays: 7 }, ["ada"]],
  ["did at least 3 times in 30 days", { kind: "activity", activity: "purchase", op: "did", atLeast: 3, withinDays: 30 }, ["dee"]],
  ["did not in 7 days", { kind: "activity", activity: "session_completed", op: "did_not", withinDays: 7 }, ["bob", "cai", "dee", "eve", "fay"]],
  ["never did", { kind: "activity", activity: "session_completed", op: "never" }, ["cai", "dee", "fay"]],
  ["has an active device", { kind: "has_active_device" }, ["ada", "bob", "dee", "fay"]],
  ["has an email", { kind: "has_email" }, ["ada", "bob", "dee", "eve"]],
  ["has a phone", { kind: "has_phone" }, ["bob", "cai"]],
  ["not suppressed on email", { kind: "not_suppressed", channel: "email" }, ["bob", "cai", "dee", "eve", "fay"]],
  ["not suppressed on sms", { kind: "not_suppressed", channel: "sms" }, ["ada", "cai", "dee", "eve", "fay"]],
  ["not suppressed on push (one of dee's tokens is)", { kind: "not_suppressed", channel: "push" }, ["ada", "bob", "cai", "eve", "fay"]],
  ["not", { kind: "not", child: { kind: "has_email" } }, ["cai", "fay"]],
  ["or", { kind: "or", children: [{ kind: "has_phone" }, { kind: "attribute", attribute: "vip", op: "eq", value: true }] }, ["ada", "bob", "cai"]],
  ["a value that looks like SQL is only a value", { kind: "attribute", attribute: "plan", op: "eq", value: INJECTION }, ["fay"]],
  ["a profile value that looks like SQL", { kind: "profile", field: "email", op: "in", value: [INJECTION, "eve@example.com"] }, ["eve"]],
];

const PRESETS: Record<string, string[]> = {
  all_with_device: ["ada", "bob", "dee", "fay"],
  inactive_7d: ["bob"],
  never_sessioned: ["dee", "fay"],
  test_due: ["ada", "dee"],
};

describe("segment members on Postgres", () => {
  const test = useTestDatabase();
  let names = new Map<string, string>();
  const segments = new Map<string, Rule>();
  let prosId = "";

  beforeAll(async () => {
    const ids = await insertPopulation(test.db.pool, POPULATION);
    names = new Map([...ids].map(([externalId, id]) => [id, externalId]));
    const pros: Rule = { kind: "attribute", attribute: "plan", op: "eq", value: "pro" };
    const created = await createSegment(test.db.pool, { name: "Pros", description: "", rule: pros, memberId: null });
    if (created.kind !== "saved") throw new Error(created.kind);
    prosId = created.id;
    segments.set(prosId, pros);
  });

  /** The members the SQL selects, by external id. */
  async function sqlMembers(rule: Rule): Promise<string[]> {
    const query = await segmentQuery(test.db.pool, rule, NOW);
    const { rows } = await test.db.pool.query<{ user_id: string }>(query.sql, query.params);
    return rows.map((r) => names.get(String(r.user_id))!).sort();
  }

  function evaluatedMembers(rule: Rule): string[] {
    const context = evaluationContext(POPULATION, NOW, segments);
    return POPULATION.users.filter((u) => evaluateRule(rule, subjectOf(u), context)).map((u) => u.externalId);
  }

  it.each(CASES)("%s", async (_name, rule, expected) => {
    expect(await sqlMembers(rule)).toEqual(expected);
    expect(evaluatedMembers(rule)).toEqual(expected);
  });

  it("selects another segment's members by reference", async () => {
    const rule: Rule = { kind: "and", children: [{ kind: "segment", segmentId: prosId }, { kind: "has_active_device" }] };
    expect(await sqlMembers(rule)).toEqual(["ada", "dee"]);
    expect(evaluatedMembers(rule)).toEqual(["ada", "dee"]);
  });

  it.each(SEGMENT_PRESETS.map((p) => [p.key, p.rule] as const))("preset %s", async (key, rule) => {
    expect(await sqlMembers(rule)).toEqual(PRESETS[key]);
    expect(evaluatedMembers(rule)).toEqual(PRESETS[key]);
  });

  it("binds every value: the injection attempt left herald.users in place", async () => {
    const query = await segmentQuery(test.db.pool, { kind: "attribute", attribute: "plan", op: "eq", value: INJECTION }, NOW);
    expect(query.sql).not.toContain("DROP");
    expect(query.params).toContain(JSON.stringify(INJECTION));
    const { rows } = await test.db.pool.query("SELECT count(*)::int AS n FROM herald.users");
    expect(rows[0].n).toBe(6);
  });

  it("counts and samples the lowest ids first", async () => {
    const query = await segmentQuery(test.db.pool, { kind: "has_email" }, NOW);
    expect(await countSegment(test.db.pool, query)).toBe(4);
    const sample = await sampleSegment(test.db.pool, query, 2);
    expect(sample.map((m) => m.externalId)).toEqual(["ada", "bob"]);
    expect(sample[0]).toMatchObject({ email: "ada@acme.com", phone: null, locale: "en", timezone: "Europe/London" });
  });

  it("counts an erased person's hashed suppression as suppressed, as the send-time gate does", async () => {
    // Stored as an erasure stores them (decision 0014): the hash of the normalised address, so
    // case and surrounding spaces of the address erased do not matter.
    const hashed = [
      ["email", " EVE@example.com "],
      ["sms", "+4915100000001"],
      ["push", "tok-ada"],
    ];
    await test.db.pool.query(
      `INSERT INTO herald.suppressions (channel, address, reason, source)
       SELECT c, herald.suppression_hash(c, a), 'complaint', 'erasure' FROM unnest($1::text[], $2::text[]) s(c, a)`,
      [hashed.map((h) => h[0]), hashed.map((h) => h[1])],
    );
    try {
      expect(await sqlMembers({ kind: "not_suppressed", channel: "email" })).toEqual(["bob", "cai", "dee", "fay"]);
      expect(await sqlMembers({ kind: "not_suppressed", channel: "sms" })).toEqual(["ada", "dee", "eve", "fay"]);
      expect(await sqlMembers({ kind: "not_suppressed", channel: "push" })).toEqual(["bob", "cai", "eve", "fay"]);
      const id = (externalId: string) => [...names].find(([, name]) => name === externalId)![0];
      const verdicts = await evaluateGates(
        test.db.pool,
        [
          { userId: id("eve"), channel: "email", category: "news", lane: "bulk" },
          { userId: id("cai"), channel: "sms", category: "news", lane: "bulk" },
          { userId: id("ada"), channel: "push", category: "news", lane: "bulk" },
        ],
        NOW,
        "UTC",
      );
      expect(verdicts.map((v) => v.reason)).toEqual(["suppressed:complaint", "suppressed:complaint", "suppressed:complaint"]);
    } finally {
      await test.db.pool.query("DELETE FROM herald.suppressions WHERE address LIKE 'sha256:%'");
    }
  });

  it("gives up a count that outlasts its timeout", async () => {
    expect(await countSegment(test.db.pool, { sql: "SELECT 1 AS user_id FROM pg_sleep(1)", params: [] }, 50)).toBeNull();
  });
});
