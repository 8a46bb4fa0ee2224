import { randomBytes } from "node:crypto";
import pg from "pg";
import { databaseName, withDatabase } from "./template-database.ts";

/** A database of one's own, cloned from the migrated template. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Clones the template into a fresh database, so no test file ever sees another's rows. */
export async function createTestDatabase(templateUrl: string): Promise<TestDatabase> {
  const template = databaseName(templateUrl);
  const name = `herald_test_${randomBytes(6).toString("hex")}`;
  const maintenanceUrl = withDatabase(templateUrl, "postgres");
  await withClient(maintenanceUrl, (c) =>
    c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(template)}`),
  );
  return {
    url: withDatabase(templateUrl, name),
    drop: async () => {
      await withClient(maintenanceUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`));
    },
  };
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
