import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, type Database } from "../../src/client.ts";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index.ts";

/** A fresh database for this test file, cloned from the migrated template, dropped afterwards. */
export function useTestDatabase(): { readonly url: string; readonly db: Database } {
  let database: TestDatabase | undefined;
  let db: Database | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(inject("templateUrl"));
    db = openDatabase(database.url);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });
  return {
    get url() {
      if (!database) throw new Error("useTestDatabase: used outside a test");
      return database.url;
    },
    get db() {
      if (!db) throw new Error("useTestDatabase: used outside a test");
      return db;
    },
  };
}
