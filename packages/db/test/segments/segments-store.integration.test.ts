import type { Rule } from "@herald/core";
import { describe, expect, it } from "vitest";
import {
  createSegment,
  deleteSegment,
  findSegment,
  listActivityNames,
  listAttributeNames,
  listSegmentDependents,
  listSegments,
  markSegmentUsed,
  recordSegmentCount,
  updateSegment,
} from "../../src/index.ts";
import { insertPopulation } from "../support/segment-population.ts";
import { useTestDatabase } from "../support/test-database.ts";

const hasEmail: Rule = { kind: "has_email" };
const isIn = (segmentId: string): Rule => ({ kind: "segment", segmentId });

describe("stored segments", () => {
  const test = useTestDatabase();

  async function saved(name: string, rule: Rule = hasEmail): Promise<string> {
    const outcome = await createSegment(test.db.pool, { name, description: `about ${name}`, rule, memberId: null });
    if (outcome.kind !== "saved") throw new Error(`${name}: ${outcome.kind}`);
    return outcome.id;
  }

  it("creates, finds and refuses a taken name", async () => {
    const id = await saved("Buyers", { kind: "activity", activity: "purchase", op: "did", atLeast: 1 });
    expect(await findSegment(test.db.pool, id)).toMatchObject({
      id,
      name: "Buyers",
      description: "about Buyers",
      rule: { kind: "activity", activity: "purchase", op: "did", atLeast: 1 },
      lastCount: null,
      lastUsedAt: null,
    });
    expect(await createSegment(test.db.pool, { name: "Buyers", description: "", rule: hasEmail, memberId: null })).toEqual({ kind: "name_taken" });
    expect(await findSegment(test.db.pool, "999999")).toBeNull();
  });

  it("refuses a rule naming a segment that does not exist", async () => {
    expect(await createSegment(test.db.pool, { name: "Ghost", description: "", rule: isIn("424242"), memberId: null })).toEqual({
      kind: "missing_segments",
      ids: ["424242"],
    });
  });

  it("refuses cycles on save, direct and through other segments", async () => {
    const a = await saved("Cycle A");
    const b = await saved("Cycle B", isIn(a));
    const c = await saved("Cycle C", { kind: "and", children: [isIn(b), hasEmail] });
    expect(await updateSegment(test.db.pool, a, { rule: isIn(a), memberId: null })).toEqual({ kind: "cycle", chain: [{ id: a, name: "Cycle A" }, { id: a, name: "Cycle A" }] });
    expect(await updateSegment(test.db.pool, a, { rule: { kind: "not", child: isIn(c) }, memberId: null })).toEqual({
      kind: "cycle",
      chain: [
        { id: a, name: "Cycle A" },
        { id: c, name: "Cycle C" },
        { id: b, name: "Cycle B" },
        { id: a, name: "Cycle A" },
      ],
    });
    expect((await findSegment(test.db.pool, a))?.rule).toEqual(hasEmail);
    // Re-pointing C away from B and then B at C is fine: no chain leads back any more.
    expect(await updateSegment(test.db.pool, c, { rule: hasEmail, memberId: null })).toEqual({ kind: "saved", id: c });
    expect(await updateSegment(test.db.pool, b, { rule: isIn(c), memberId: null })).toEqual({ kind: "saved", id: b });
  });

  it("lets only one of two concurrent saves close a loop", async () => {
    const a = await saved("Race A");
    const b = await saved("Race B");
    const outcomes = await Promise.all([
      updateSegment(test.db.pool, a, { rule: isIn(b), memberId: null }),
      updateSegment(test.db.pool, b, { rule: isIn(a), memberId: null }),
    ]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(["cycle", "saved"]);
  });

  it("refuses to delete a segment another one names, then deletes it once free", async () => {
    const base = await saved("Base");
    const user = await saved("User of base", isIn(base));
    expect(await listSegmentDependents(test.db.pool, base)).toEqual([{ id: user, name: "User of base" }]);
    expect(await deleteSegment(test.db.pool, base)).toEqual({ kind: "in_use", segments: [{ id: user, name: "User of base" }], table: null });
    expect(await deleteSegment(test.db.pool, user)).toEqual({ kind: "deleted", name: "User of base" });
    expect(await deleteSegment(test.db.pool, base)).toEqual({ kind: "deleted", name: "Base" });
    expect(await deleteSegment(test.db.pool, base)).toEqual({ kind: "not_found" });
  });

  it("refuses to delete a segment another table refers to (as a broadcast will)", async () => {
    const id = await saved("Referenced");
    // Both ways a foreign key can refuse: NO ACTION (the default) and RESTRICT (what broadcasts use).
    await test.db.pool.query("CREATE TABLE herald.segment_users_for_test (segment_id bigint REFERENCES herald.segments (id))");
    await test.db.pool.query("INSERT INTO herald.segment_users_for_test VALUES ($1)", [id]);
    expect(await deleteSegment(test.db.pool, id)).toEqual({ kind: "in_use", segments: [], table: "segment_users_for_test" });
    await test.db.pool.query("CREATE TABLE herald.segment_restrictors_for_test (segment_id bigint REFERENCES herald.segments (id) ON DELETE RESTRICT)");
    await test.db.pool.query("INSERT INTO herald.segment_restrictors_for_test VALUES ($1)", [id]);
    await test.db.pool.query("DELETE FROM herald.segment_users_for_test");
    expect(await deleteSegment(test.db.pool, id)).toEqual({ kind: "in_use", segments: [], table: "segment_restrictors_for_test" });
    expect(await findSegment(test.db.pool, id)).not.toBeNull();
  });

  it("keeps a count only for the rule it counted, and drops it when the rule changes", async () => {
    const id = await saved("Counted");
    const at = new Date("2026-11-30T12:00:00Z");
    await recordSegmentCount(test.db.pool, id, { kind: "has_phone" }, 5, at);
    expect((await findSegment(test.db.pool, id))?.lastCount).toBeNull();
    await recordSegmentCount(test.db.pool, id, hasEmail, 7, at);
    expect(await findSegment(test.db.pool, id)).toMatchObject({ lastCount: 7, lastCountedAt: at });
    await updateSegment(test.db.pool, id, { name: "Counted, renamed", memberId: null });
    expect((await findSegment(test.db.pool, id))?.lastCount).toBe(7);
    await updateSegment(test.db.pool, id, { rule: { kind: "has_phone" }, memberId: null });
    expect(await findSegment(test.db.pool, id)).toMatchObject({ name: "Counted, renamed", lastCount: null, lastCountedAt: null });
    expect(await updateSegment(test.db.pool, id, { name: "Buyers", memberId: null })).toEqual({ kind: "name_taken" });
    expect(await updateSegment(test.db.pool, "999999", { name: "x", memberId: null })).toEqual({ kind: "not_found" });
  });

  it("marks a segment used at its latest use", async () => {
    const id = await saved("Used");
    await markSegmentUsed(test.db.pool, id, new Date("2026-11-30T10:00:00Z"));
    await markSegmentUsed(test.db.pool, id, new Date("2026-11-29T10:00:00Z"));
    expect((await findSegment(test.db.pool, id))?.lastUsedAt).toEqual(new Date("2026-11-30T10:00:00Z"));
  });

  it("lists by name, searched and paged", async () => {
    const page = await listSegments(test.db.pool, { search: "cycle", limit: 2 });
    expect(page.items.map((s) => s.name)).toEqual(["Cycle A", "Cycle B"]);
    const next = await listSegments(test.db.pool, { search: "cycle", after: page.nextCursor, limit: 2 });
    expect(next).toMatchObject({ items: [{ name: "Cycle C" }], nextCursor: null });
    expect((await listSegments(test.db.pool, { search: "100%", limit: 10 })).items).toEqual([]);
  });

  it("names the attributes and activities seen in the data", async () => {
    const now = new Date();
    await insertPopulation(test.db.pool, {
      users: [
        { externalId: "n1", attributes: { plan: "pro", age: 30, last_test_at: "2026-10-01", tags: ["a"] }, activities: [{ name: "purchase", occurredAt: now }] },
        { externalId: "n2", attributes: { plan: "free", vip: true }, activities: [{ name: "app_opened", occurredAt: new Date(now.getTime() - 1000) }] },
        { externalId: "n3", attributes: { plan: "team" }, activities: [{ name: "purchase", occurredAt: new Date(now.getTime() - 5000) }] },
      ],
      suppressions: [],
    });
    const attributes = await listAttributeNames(test.db.pool);
    expect(attributes[0]).toEqual({ name: "plan", kind: "string", share: 1 });
    expect(attributes.slice(1)).toEqual([
      { name: "age", kind: "number", share: 1 / 3 },
      { name: "last_test_at", kind: "date", share: 1 / 3 },
      { name: "tags", kind: "list", share: 1 / 3 },
      { name: "vip", kind: "boolean", share: 1 / 3 },
    ]);
    const activities = await listActivityNames(test.db.pool);
    expect(activities).toEqual([
      { name: "app_opened", lastSeenAt: new Date(now.getTime() - 1000) },
      { name: "purchase", lastSeenAt: now },
    ]);
  });
});
