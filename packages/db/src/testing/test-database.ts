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
    drop: () =>
      withClient(maintenanceUrl, async (c) => {
        await untilDisconnected(c, name);
        await c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      }),
  };
}

/** How long a drop waits for the database's connections to close before forcing them. */
const DISCONNECT_WAIT_MS = 3_000;

/**
 * pg-pool's end() resolves before its connections have closed, and graphile-worker does not even
 * wait for that. Forced at once, the drop would end those backends with an error sent to
 * clients that no longer listen for one: an uncaught exception in whatever test runs next. It
 * waits for them to go first; FORCE is for connections a test leaked.
 */
async function untilDisconnected(client: pg.Client, database: string): Promise<void> {
  const deadline = Date.now() + DISCONNECT_WAIT_MS;
  while (Date.now() < deadline) {
    const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [database]);
    if (rows[0]!.n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
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
