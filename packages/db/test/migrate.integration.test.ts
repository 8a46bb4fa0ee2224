import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { MigrationError, migrate, pendingMigrations, readMigrations } from "../src/migrate.ts";
import { withDatabase } from "../src/testing/index.ts";

const created: string[] = [];

async function emptyDatabase(): Promise<string> {
  const name = `herald_empty_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: withDatabase(inject("templateUrl"), "postgres") });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  created.push(name);
  return withDatabase(inject("templateUrl"), name);
}

afterAll(async () => {
  const admin = new pg.Client({ connectionString: withDatabase(inject("templateUrl"), "postgres") });
  await admin.connect();
  for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

function migrationsDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "herald-migrations-"));
  for (const [name, sql] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("migrate", () => {
  it("applies every migration of prisma/migrations once, then nothing", async () => {
    const url = await emptyDatabase();
    const all = readMigrations().map((m) => m.name);
    expect(await migrate(url)).toEqual({ applied: all });
    expect(await migrate(url)).toEqual({ applied: [] });
    const pool = new pg.Pool({ connectionString: url });
    expect(await pendingMigrations(pool)).toEqual([]);
    await pool.end();
  });

  it("migrates once when several processes start at the same time", async () => {
    const url = await emptyDatabase();
    const results = await Promise.all(Array.from({ length: 4 }, () => migrate(url)));
    const applied = results.flatMap((r) => r.applied);
    expect(applied.sort()).toEqual(readMigrations().map((m) => m.name).sort());
    const rows = await query<{ n: string }>(url, "SELECT count(*) AS n FROM herald.schema_migrations");
    expect(Number(rows[0]?.n)).toBe(readMigrations().length);
  });

  it("rolls a failing migration back and names its file and line", async () => {
    const url = await emptyDatabase();
    const dir = migrationsDir({
      "20260101000000_first": "CREATE TABLE herald.first (id int);",
      "20260102000000_broken": "CREATE TABLE herald.half (id int);\nINSERT INTO herald.half VALUES (1);\nSELEC nonsense;",
      "20260103000000_after": "CREATE TABLE herald.after (id int);",
    });
    const error = await migrate(url, dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/^Migration 20260102000000_broken failed \(.*20260102000000_broken\/migration\.sql:3:1\): syntax error at or near "SELEC"/);
    const tables = await query<{ table_name: string }>(
      url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'herald' ORDER BY 1",
    );
    expect(tables.map((t) => t.table_name)).toEqual(["first", "schema_migrations"]);
    const names = await query<{ name: string }>(url, "SELECT name FROM herald.schema_migrations");
    expect(names.map((n) => n.name)).toEqual(["20260101000000_first"]);
  });

  it("runs a migration whose first line opts out of the transaction outside one", async () => {
    const url = await emptyDatabase();
    const dir = migrationsDir({
      "20260101000000_table": "CREATE TABLE herald.t (id int);",
      "20260102000000_index": "-- herald:no-transaction\nCREATE INDEX CONCURRENTLY t_id_idx ON herald.t (id);",
    });
    expect((await migrate(url, dir)).applied).toHaveLength(2);
    const rows = await query(url, "SELECT 1 FROM pg_indexes WHERE indexname = 't_id_idx'");
    expect(rows).toHaveLength(1);
  });

  it("refuses to run when an applied migration was edited", async () => {
    const url = await emptyDatabase();
    const dir = migrationsDir({ "20260101000000_table": "CREATE TABLE herald.t (id int);" });
    await migrate(url, dir);
    fs.writeFileSync(path.join(dir, "20260101000000_table", "migration.sql"), "CREATE TABLE herald.t (id bigint);");
    await expect(migrate(url, dir)).rejects.toThrow(/20260101000000_table was changed after it was applied/);
  });

  it("rejects a folder that is not named <timestamp>_<name>", () => {
    const dir = migrationsDir({ "add-users": "SELECT 1;" });
    expect(() => readMigrations(dir)).toThrow(/"add-users" .* must be named <14-digit timestamp>_<snake_case_name>/);
  });

  it("lists the migrations a database has not applied", async () => {
    const url = await emptyDatabase();
    const pool = new pg.Pool({ connectionString: url });
    expect(await pendingMigrations(pool)).toEqual(readMigrations().map((m) => m.name));
    await pool.end();
  });
});
