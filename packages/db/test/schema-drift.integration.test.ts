import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findSchemaDrift } from "./support/schema-drift.ts";
import { useTestDatabase } from "./support/test-database.ts";

const schemaPath = fileURLToPath(new URL("../../../prisma/schema.prisma", import.meta.url));

/**
 * A deliberately drifting copy of schema.prisma, made from the real one so it never goes stale:
 * each edit is one kind of disagreement the test must catch.
 */
function driftingSchema(): string {
  const edits: Array<[string, string]> = [
    // nullability: email is optional in the database
    ["  email         String?\n  phone", "  email         String\n  phone"],
    // a field with no column
    ["  locale        String?\n  attributes", "  locale        String?\n  nickname      String?\n  attributes"],
    // a type
    ['  attemptCount      Int                 @default(0)', '  attemptCount      BigInt              @default(0)'],
    // an index that does not exist
    ['  @@index([eventRef], map: "notifications_event_idx")\n', '  @@index([eventRef], map: "notifications_event_idx")\n  @@index([channel, status], map: "notifications_channel_status_idx")\n'],
    // a column the model does not describe
    ['  userAgent  String?  @map("user_agent")\n  ip         String?\n', '  userAgent  String?  @map("user_agent")\n'],
    // a unique that does not exist
    ["  name          String\n  prefix        String    @unique", "  name          String    @unique\n  prefix        String    @unique"],
  ];
  return edits.reduce((schema, [from, to]) => {
    if (!schema.includes(from)) throw new Error(`drift fixture: schema.prisma no longer contains ${JSON.stringify(from)}`);
    return schema.replace(from, to);
  }, fs.readFileSync(schemaPath, "utf8"));
}

describe("schema.prisma against the migrated database", () => {
  const test = useTestDatabase();

  it("agrees on every model, field, type, nullability, unique and index", async () => {
    const problems = await findSchemaDrift(fs.readFileSync(schemaPath, "utf8"), test.db.pool);
    expect(problems).toEqual([]);
  });

  it("reports each disagreement of a deliberately drifting schema", async () => {
    const problems = await findSchemaDrift(driftingSchema(), test.db.pool);
    expect(problems).toEqual(
      expect.arrayContaining([
        "User.email: schema.prisma says required, users.email is nullable",
        "User.nickname: column users.nickname does not exist",
        "Notification.attemptCount: schema.prisma says bigint, notifications.attempt_count is integer",
        'index Notification(channel, status) "notifications_channel_status_idx" is in schema.prisma but not in the database',
        "sessions.ip exists in the database but not in model Session",
        "unique ApiKey(name) is in schema.prisma but not in the database",
      ]),
    );
    expect(problems).toHaveLength(6);
  });

  it("reports a table the schema does not describe", async () => {
    await test.db.pool.query("CREATE TABLE herald.stray (id int)");
    try {
      const problems = await findSchemaDrift(fs.readFileSync(schemaPath, "utf8"), test.db.pool);
      expect(problems).toEqual(["table herald.stray exists in the database but has no model in schema.prisma"]);
    } finally {
      await test.db.pool.query("DROP TABLE herald.stray");
    }
  });
});
