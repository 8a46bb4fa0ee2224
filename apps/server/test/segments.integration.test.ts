import { beforeAll, describe, expect, it } from "vitest";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery } from "./support/trpc-http.ts";

const INACTIVE_7D = {
  kind: "and",
  children: [
    { kind: "has_active_device" },
    { kind: "activity", activity: "session_completed", op: "did", atLeast: 1 },
    { kind: "activity", activity: "session_completed", op: "did_not", withinDays: 7 },
  ],
};

describe("the segments API", () => {
  const server = useTestServer();
  let marketer = "";
  let viewer = "";
  let support = "";

  beforeAll(async () => {
    marketer = (await memberWithSession(server.database, "marketer")).cookie;
    viewer = (await memberWithSession(server.database, "viewer")).cookie;
    support = (await memberWithSession(server.database, "support")).cookie;
    // Three users: u1 lapsed (session 9 days ago), u2 active (yesterday), u3 without a device.
    await server.database.pool.query(`
      INSERT INTO herald.users (external_id, email, attributes) VALUES
        ('u1', 'u1@example.com', '{"plan": "pro"}'), ('u2', 'u2@example.com', '{"plan": "free", "age": 40}'), ('u3', NULL, '{"plan": "pro"}');
      INSERT INTO herald.devices (user_id, token, platform) SELECT id, 'tok-' || external_id, 'ios' FROM herald.users WHERE external_id IN ('u1', 'u2');
      INSERT INTO herald.activities (user_id, name, occurred_at)
        SELECT id, 'session_completed', now() - CASE external_id WHEN 'u1' THEN interval '9 days' ELSE interval '1 day' END
          FROM herald.users WHERE external_id IN ('u1', 'u2');`);
  });

  it("previews a rule too large for a URL (a mutation, not a GET)", async () => {
    const rule = { kind: "or", children: Array.from({ length: 90 }, (_, i) => ({ kind: "attribute", attribute: "plan", op: "eq", value: `${"x".repeat(200)}${i}` })) };
    expect(JSON.stringify(rule).length).toBeGreaterThan(20_000);
    const preview = await trpcMutation(server.url, "segments.preview", { rule: { kind: "or", children: [...rule.children, { kind: "attribute", attribute: "plan", op: "eq", value: "free" }] } }, { cookie: viewer });
    expect(preview.error).toBeNull();
    expect(preview.data.count).toBe(1);
  });

  it("previews an unsaved rule: count, sample and plain words", async () => {
    const preview = await trpcMutation(server.url, "segments.preview", { rule: INACTIVE_7D }, { cookie: viewer });
    expect(preview.error).toBeNull();
    expect(preview.data).toMatchObject({
      count: 1,
      sample: [{ externalId: "u1", email: "u1@example.com" }],
      words: "has an active device, and did session_completed at least once, but not in the last 7 days",
    });
  });

  it("creates, counts, lists, updates and deletes, audit-logging each change", async () => {
    const created = await trpcMutation(server.url, "segments.create", { name: "Lapsed", description: "No session this week", rule: INACTIVE_7D }, { cookie: marketer });
    expect(created.error).toBeNull();
    const id = created.data.id as string;

    const counted = await trpcQuery(server.url, "segments.count", { id }, { cookie: viewer });
    expect(counted.data.size).toBe(1);
    const listed = await trpcQuery(server.url, "segments.list", {}, { cookie: viewer });
    expect(listed.data.items).toEqual([
      expect.objectContaining({ id, name: "Lapsed", description: "No session this week", size: 1, lastUsedAt: null, words: expect.stringContaining("but not in the last 7 days") }),
    ]);

    const pros = await trpcMutation(server.url, "segments.create", { name: "Lapsed pros", rule: { kind: "and", children: [{ kind: "segment", segmentId: id }, { kind: "attribute", attribute: "plan", op: "eq", value: "pro" }] } }, { cookie: marketer });
    const got = await trpcQuery(server.url, "segments.get", { id: pros.data.id }, { cookie: viewer });
    expect(got.data.segment.words).toBe('is in segment "Lapsed", and plan is "pro"');
    expect(got.data.canEdit).toBe(false);
    expect((await trpcQuery(server.url, "segments.get", { id }, { cookie: marketer })).data).toMatchObject({
      usedBy: [{ id: pros.data.id, name: "Lapsed pros" }],
      canEdit: true,
    });

    const updated = await trpcMutation(server.url, "segments.update", { id, name: "Lapsed users", rule: { kind: "has_email" } }, { cookie: marketer });
    expect(updated.error).toBeNull();
    expect((await trpcQuery(server.url, "segments.get", { id }, { cookie: marketer })).data.segment).toMatchObject({ name: "Lapsed users", size: null, words: "has an email address" });

    const refused = await trpcMutation(server.url, "segments.delete", { id }, { cookie: marketer });
    expect(refused.error).toMatchObject({ message: `Segment ${id} is used by the rule of "Lapsed pros", so it cannot be deleted`, data: { code: "CONFLICT" } });
    expect((await trpcMutation(server.url, "segments.delete", { id: pros.data.id }, { cookie: marketer })).error).toBeNull();
    expect((await trpcMutation(server.url, "segments.delete", { id }, { cookie: marketer })).error).toBeNull();
    expect((await trpcQuery(server.url, "segments.get", { id }, { cookie: marketer })).error?.data.code).toBe("NOT_FOUND");

    const { rows } = await server.database.pool.query("SELECT action, target, detail->>'name' AS name FROM herald.audit_log WHERE action LIKE 'segments.%' ORDER BY id");
    expect(rows).toEqual([
      { action: "segments.create", target: `segment:${id}`, name: "Lapsed" },
      { action: "segments.create", target: `segment:${pros.data.id}`, name: "Lapsed pros" },
      { action: "segments.update", target: `segment:${id}`, name: "Lapsed users" },
      { action: "segments.delete", target: `segment:${pros.data.id}`, name: "Lapsed pros" },
      { action: "segments.delete", target: `segment:${id}`, name: "Lapsed users" },
    ]);
  });

  it("refuses a bad rule with BAD_REQUEST naming the node's path", async () => {
    const bad = (rule: unknown) => trpcMutation(server.url, "segments.create", { name: `bad ${Math.random()}`, rule }, { cookie: marketer });
    const cases: Array<[unknown, string]> = [
      [{ kind: "and", children: [{ kind: "has_email" }, { kind: "has_phone" }, { kind: "attribute", attribute: "age", op: "gt", value: "40" }] }, "rule.children[2].value: must be a number"],
      [{ kind: "or", children: [{ kind: "attribute", attribute: "age", op: "between", value: 1 }] }, 'rule.children[0].op: "between" is not an attribute operator: use eq, ne, lt, gt, contains, in, exists, before, after, within_last'],
      [{ kind: "not", child: { kind: "attribute", attribute: "a'; --", op: "exists" } }, 'rule.child.attribute: must start with a letter or "_" and use only letters, digits, "_" and "." (a dot reads a nested attribute)'],
      [{ kind: "and", children: Array.from({ length: 101 }, () => ({ kind: "has_email" })) }, "rule: has 101 conditions: a rule may have at most 100"],
      [{ kind: "and", children: [{ kind: "segment", segmentId: "987654" }] }, "rule.children[0].segmentId: there is no segment 987654"],
    ];
    let deep: unknown = { kind: "has_email" };
    for (let i = 0; i < 10; i++) deep = { kind: "not", child: deep };
    cases.push([deep, "rule.child.child.child.child.child.child.child.child.child.child: is nested 11 levels deep: a rule may be at most 10 levels deep"]);
    for (const [rule, message] of cases) {
      const result = await bad(rule);
      expect(result.error?.data.code).toBe("BAD_REQUEST");
      expect(result.error?.message).toBe(message);
    }
    const preview = await trpcMutation(server.url, "segments.preview", { rule: { kind: "attribute", attribute: "age", op: "lt", value: true } }, { cookie: viewer });
    expect(preview.error).toMatchObject({ message: "rule.value: must be a number", data: { code: "BAD_REQUEST", details: { problems: [{ path: "rule.value", at: ["value"], message: "must be a number" }] } } });
    const { rows } = await server.database.pool.query("SELECT count(*)::int AS n FROM herald.segments WHERE name LIKE 'bad %'");
    expect(rows[0].n).toBe(0);
  });

  it("refuses a cycle on save and a taken name", async () => {
    const a = (await trpcMutation(server.url, "segments.create", { name: "Loop A", rule: { kind: "has_email" } }, { cookie: marketer })).data.id;
    const b = (await trpcMutation(server.url, "segments.create", { name: "Loop B", rule: { kind: "or", children: [{ kind: "has_phone" }, { kind: "segment", segmentId: a }] } }, { cookie: marketer })).data.id;
    const loop = await trpcMutation(server.url, "segments.update", { id: a, rule: { kind: "not", child: { kind: "segment", segmentId: b } } }, { cookie: marketer });
    expect(loop.error).toMatchObject({
      message: 'rule.child.segmentId: segment "Loop B" includes this one, so this would make a loop: "Loop A" → "Loop B" → "Loop A"',
      data: { code: "BAD_REQUEST" },
    });
    const itself = await trpcMutation(server.url, "segments.update", { id: a, rule: { kind: "segment", segmentId: a } }, { cookie: marketer });
    expect(itself.error?.message).toBe("rule.segmentId: a segment cannot include itself");
    const taken = await trpcMutation(server.url, "segments.create", { name: "Loop A", rule: { kind: "has_email" } }, { cookie: marketer });
    expect(taken.error).toMatchObject({ message: 'name: a segment named "Loop A" already exists', data: { code: "CONFLICT" } });
  });

  it("refuses to delete a segment a broadcast uses", async () => {
    const id = (await trpcMutation(server.url, "segments.create", { name: "Broadcast audience", rule: { kind: "has_email" } }, { cookie: marketer })).data.id;
    await server.database.pool.query(`
      INSERT INTO herald.categories (key, label) VALUES ('news', 'News');
      INSERT INTO herald.templates (key, name, channels, default_locale) VALUES ('news.weekly', 'Weekly', '{email}', 'en');`);
    await server.database.pool.query(
      `INSERT INTO herald.broadcasts (name, segment_id, template_key, variants, channels, category) VALUES ('Weekly', $1, 'news.weekly', '[{"version": 1, "percent": 100}]', '{email}', 'news')`,
      [id],
    );
    const refused = await trpcMutation(server.url, "segments.delete", { id }, { cookie: marketer });
    expect(refused.error).toMatchObject({ message: `Segment ${id} is used by a broadcast, so it cannot be deleted`, data: { code: "CONFLICT" } });
    expect((await trpcQuery(server.url, "segments.get", { id }, { cookie: marketer })).error).toBeNull();
  });

  it("offers the presets, and the attribute and activity names seen", async () => {
    const presets = await trpcQuery(server.url, "segments.presets", undefined, { cookie: viewer });
    expect(presets.data.items.map((p: { key: string }) => p.key)).toEqual(["all_with_device", "inactive_7d", "never_sessioned", "test_due"]);
    expect(presets.data.items[1].rule).toEqual(INACTIVE_7D);
    const attributes = await trpcQuery(server.url, "segments.attributeNames", undefined, { cookie: viewer });
    expect(attributes.data.items).toEqual([
      { name: "plan", kind: "string", share: 1 },
      { name: "age", kind: "number", share: 1 / 3 },
    ]);
    const activities = await trpcQuery(server.url, "segments.activityNames", undefined, { cookie: viewer });
    expect(activities.data.items.map((a: { name: string }) => a.name)).toEqual(["session_completed"]);
  });

  it("lets viewers and support read but not change segments", async () => {
    for (const cookie of [viewer, support]) {
      const created = await trpcMutation(server.url, "segments.create", { name: "Nope", rule: { kind: "has_email" } }, { cookie });
      expect(created.error?.data.code).toBe("FORBIDDEN");
      expect((await trpcQuery(server.url, "segments.list", {}, { cookie })).error).toBeNull();
    }
    expect((await trpcQuery(server.url, "segments.list", {})).error?.data.code).toBe("UNAUTHORIZED");
  });

  it("samples at most 20 members, the lowest ids first, and counts them all", async () => {
    await server.database.pool.query(
      `INSERT INTO herald.users (external_id, email, attributes) SELECT 'many-' || i, 'many-' || i || '@example.com', '{"cohort": "many"}' FROM generate_series(1, 30) i`,
    );
    const preview = await trpcMutation(server.url, "segments.preview", { rule: { kind: "attribute", attribute: "cohort", op: "eq", value: "many" } }, { cookie: viewer });
    expect(preview.data.count).toBe(30);
    expect(preview.data.sample.map((m: { externalId: string }) => m.externalId)).toEqual(Array.from({ length: 20 }, (_, i) => `many-${i + 1}`));
  });
});
