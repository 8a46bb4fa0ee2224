import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findSchemaDrift } from "./support/schema-drift.ts";
import { useTestDatabase } from "./support/test-database.ts";

const schemaPath = fileURLToPath(new URL("../../../prisma/schema.prisma", import.meta.url));
const driftingPath = fileURLToPath(new URL("./fixtures/drifting.prisma", import.meta.url));

describe("schema.prisma against the migrated database", () => {
  const test = useTestDatabase();

  it("agrees on every model, field, type, nullability, unique and index", async () => {
    const problems = await findSchemaDrift(fs.readFileSync(schemaPath, "utf8"), test.db.pool);
    expect(problems).toEqual([]);
  });

  it("reports each disagreement of a deliberately drifting schema", async () => {
    const problems = await findSchemaDrift(fs.readFileSync(driftingPath, "utf8"), test.db.pool);
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
