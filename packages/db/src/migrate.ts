import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

/** prisma/migrations at the repository root: one folder per migration, applied in name order. */
export const MIGRATIONS_DIR = fileURLToPath(new URL("../../../prisma/migrations", import.meta.url));

/** A migration's first line opting out of the wrapping transaction (for CREATE INDEX CONCURRENTLY). */
const NO_TRANSACTION = /^--\s*herald:no-transaction\b/;
const MIGRATION_NAME = /^\d{14}_[a-z0-9_]+$/;
// Any constant: every Herald process takes the same session-level lock before migrating.
const MIGRATION_LOCK_ID = 727_274_001;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
  transactional: boolean;
}

export class MigrationError extends Error {
  readonly migration: string;
  readonly file: string;
  constructor(migration: string, file: string, sql: string, cause: unknown) {
    const e = cause as { message?: string; position?: string };
    super(`Migration ${migration} failed (${file}${describePosition(sql, e.position)}): ${e.message ?? String(cause)}`);
    this.migration = migration;
    this.file = file;
    this.name = "MigrationError";
  }
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      if (!MIGRATION_NAME.test(name)) {
        throw new Error(`Migration folder "${name}" in ${dir} must be named <14-digit timestamp>_<snake_case_name>`);
      }
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return {
        name,
        sql,
        checksum: createHash("sha256").update(sql).digest("hex"),
        transactional: !NO_TRANSACTION.test(sql.split("\n", 1)[0] ?? ""),
      };
    });
}

export interface MigrateResult {
  applied: string[];
}

/**
 * Applies every pending migration under an advisory lock, so several processes starting at once
 * migrate exactly once. A failed migration rolls back and stops the run, naming the file.
 */
export async function migrate(connectionString: string, dir = MIGRATIONS_DIR): Promise<MigrateResult> {
  const migrations = readMigrations(dir);
  const client = new pg.Client({ connectionString, application_name: "herald-migrate" });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await client.query(`
      CREATE SCHEMA IF NOT EXISTS herald;
      CREATE TABLE IF NOT EXISTS herald.schema_migrations (
        name       text PRIMARY KEY,
        checksum   text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const done = await appliedMigrations(client);
    const applied: string[] = [];
    for (const migration of migrations) {
      const previous = done.get(migration.name);
      if (previous !== undefined) {
        if (previous !== migration.checksum) {
          throw new Error(
            `Migration ${migration.name} was changed after it was applied (checksum differs). ` +
              "Migrations are append-only: add a new migration instead.",
          );
        }
        continue;
      }
      await applyOne(client, migration, dir);
      applied.push(migration.name);
    }
    return { applied };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => undefined);
    await client.end();
  }
}

async function applyOne(client: pg.Client, migration: Migration, dir: string): Promise<void> {
  const file = path.join(path.basename(dir), migration.name, "migration.sql");
  const record = () =>
    client.query("INSERT INTO herald.schema_migrations (name, checksum) VALUES ($1, $2)", [migration.name, migration.checksum]);
  if (!migration.transactional) {
    try {
      await client.query(migration.sql);
    } catch (error) {
      throw new MigrationError(migration.name, file, migration.sql, error);
    }
    await record();
    return;
  }
  await client.query("BEGIN");
  try {
    await client.query(migration.sql);
    await record();
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw new MigrationError(migration.name, file, migration.sql, error);
  }
}

async function appliedMigrations(client: pg.Client | pg.Pool): Promise<Map<string, string>> {
  const { rows } = await client.query<{ name: string; checksum: string }>("SELECT name, checksum FROM herald.schema_migrations");
  return new Map(rows.map((r) => [r.name, r.checksum]));
}

/** Names of migrations on disk that the database has not applied ([] when current). */
export async function pendingMigrations(db: pg.Pool, dir = MIGRATIONS_DIR): Promise<string[]> {
  let done: Map<string, string>;
  try {
    done = await appliedMigrations(db);
  } catch (error) {
    if ((error as { code?: string }).code === "42P01" || (error as { code?: string }).code === "3F000") {
      done = new Map();
    } else {
      throw error;
    }
  }
  return readMigrations(dir)
    .map((m) => m.name)
    .filter((name) => !done.has(name));
}

/** Postgres reports a 1-based character offset; a reader wants line:column. */
function describePosition(sql: string, position: string | undefined): string {
  if (!position) return "";
  const before = sql.slice(0, Number(position) - 1).split("\n");
  return `:${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
}
