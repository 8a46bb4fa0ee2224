import { describe, expect, it } from "vitest";
import { appendAudit, listAudit, listAuditActions } from "../src/audit/audit-log.ts";
import { useTestDatabase } from "./support/test-database.ts";

const ACTIONS = ["api_keys.create", "api_keys.revoke", "categories.upsert", "members.role", "apiXkeys.create", "categories.delete", "api_keys.create"];

describe("the audit log's actions", () => {
  const test = useTestDatabase();

  it("lists each action once, in order, and filters by a prefix taken literally", async () => {
    for (const action of ACTIONS) await appendAudit(test.db.prisma, { actorMemberId: null, actor: "cli", action });

    const distinct = await test.db.pool.query<{ action: string }>("SELECT DISTINCT action FROM herald.audit_log ORDER BY action");
    expect(distinct.rows).toHaveLength(6);
    expect(await listAuditActions(test.db.prisma)).toEqual(distinct.rows.map((r) => r.action));

    // "_" is a LIKE wildcard: a prefix must not match apiXkeys.
    const apiKeys = await listAudit(test.db.pool, { action: "api_keys.", limit: 50 });
    expect(apiKeys.items.map((e) => e.action).sort()).toEqual(["api_keys.create", "api_keys.create", "api_keys.revoke"]);
    expect((await listAudit(test.db.pool, { action: "nothing.", limit: 50 })).items).toEqual([]);
  });

  it("looks an absent action up in the action index, and lists every action of a larger log", async () => {
    await test.db.pool.query(
      "INSERT INTO herald.audit_log (actor, action) SELECT 'cli', 'bulk.action_' || (i % 7) FROM generate_series(1, 20000) i",
    );
    await test.db.pool.query("ANALYZE herald.audit_log");
    const plan = async (query: string, params: unknown[] = []) =>
      JSON.stringify((await test.db.pool.query(`EXPLAIN (FORMAT JSON) ${query}`, params)).rows[0]);
    expect(await plan("SELECT id FROM herald.audit_log WHERE starts_with(action, $1) ORDER BY at DESC LIMIT 51", ["nothing."])).toContain("audit_log_action_idx");
    expect(await listAuditActions(test.db.prisma)).toHaveLength(6 + 7);
  });
});
