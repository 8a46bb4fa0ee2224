import { describe, expect, it } from "vitest";
import { appendAudit } from "../src/audit/audit-log.ts";
import { withTransaction } from "../src/sql.ts";
import { useTestDatabase } from "./support/test-database.ts";

// The audit log against the application's own database role (the one that owns it, so REVOKE
// cannot bind it): entries are added, never changed or removed, by any statement it can send —
// retention's prune flag included, since retention never prunes the audit log.

describe("the audit log is append-only for the application's role", () => {
  const test = useTestDatabase();

  it("refuses UPDATE, DELETE, DELETE under the prune flag and TRUNCATE, and keeps every entry", async () => {
    for (let i = 0; i < 3; i++) await appendAudit(test.db.prisma, { actorMemberId: null, actor: "cli", action: "settings.update", target: `t${i}` });
    const before = (await test.db.pool.query("SELECT * FROM herald.audit_log ORDER BY id")).rows;
    const attempts: Array<[string, string[]]> = [
      ["UPDATE", ["UPDATE herald.audit_log SET action = 'x'"]],
      ["DELETE", ["DELETE FROM herald.audit_log"]],
      ["DELETE", ["SELECT set_config('herald.allow_prune', 'on', true)", "DELETE FROM herald.audit_log"]],
      ["TRUNCATE", ["TRUNCATE herald.audit_log"]],
      ["TRUNCATE", ["TRUNCATE herald.members CASCADE"]],
    ];
    for (const [operation, statements] of attempts) {
      const attempt = withTransaction(test.db.pool, async (tx) => {
        for (const statement of statements) await tx.query(statement);
      });
      await expect(attempt, statements.join("; ")).rejects.toThrow(`audit_log is append-only: ${operation} refused`);
    }
    expect((await test.db.pool.query("SELECT * FROM herald.audit_log ORDER BY id")).rows).toEqual(before);
    await appendAudit(test.db.prisma, { actorMemberId: null, actor: "cli", action: "settings.update" });
    expect((await test.db.pool.query("SELECT count(*)::int AS n FROM herald.audit_log")).rows[0].n).toBe(4);
  });
});
