import { createBroadcast, createTemplate, openDatabase, publishTemplateDraft, transitionBroadcast, type Database } from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import { afterAll, beforeAll, inject } from "vitest";

/**
 * A fresh database with what a broadcast needs (a marketer, an everyone segment, a marketing
 * category and a published "news" email template), and a way to start broadcasts whose fan-out
 * is done: each test then writes the notification rows it wants the watch to find.
 */
export function useBroadcastWorkspace(): { readonly url: string; readonly database: Database; startSending(): Promise<string> } {
  let testDatabase: TestDatabase | undefined;
  let database: Database | undefined;
  let memberId = "";
  let segmentId = "";

  beforeAll(async () => {
    testDatabase = await createTestDatabase(inject("templateUrl"));
    database = openDatabase(testDatabase.url);
    const sql = database.pool;
    memberId = (await sql.query("INSERT INTO herald.members (email, name, role, password_hash) VALUES ('m@example.com', 'M', 'marketer', 'x') RETURNING id::text")).rows[0].id;
    segmentId = (await sql.query(`INSERT INTO herald.segments (name, rule) VALUES ('all', '{"kind": "and", "children": []}') RETURNING id::text`)).rows[0].id;
    await sql.query("INSERT INTO herald.categories (key, label) VALUES ('marketing', 'Marketing')");
    await createTemplate(sql, {
      key: "news",
      name: "News",
      channels: ["email"],
      defaultCategory: null,
      defaultLocale: "en",
      memberId,
      draft: { variables: [], content: { en: { email: { subject: "News", html: "<p>News</p>" } } } },
    });
    await publishTemplateDraft(sql, "news", memberId, () => []);
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  const open = () => {
    if (!database) throw new Error("useBroadcastWorkspace: used outside a test");
    return database;
  };
  return {
    get url() {
      if (!testDatabase) throw new Error("useBroadcastWorkspace: used outside a test");
      return testDatabase.url;
    },
    get database() {
      return open();
    },
    async startSending() {
      const sql = open().pool;
      const id = await createBroadcast(
        sql,
        { name: "b", segmentId, templateKey: "news", variants: [{ version: 1, percent: 100 }], channels: ["email"], category: "marketing", lane: "bulk", holdoutPercent: 0, throttlePerMinute: null, data: {} },
        memberId,
      );
      await transitionBroadcast(sql, id, ["draft"], "sending");
      await sql.query("UPDATE herald.broadcasts SET fanout_done_at = now() WHERE id = $1", [id]);
      return id;
    },
  };
}
