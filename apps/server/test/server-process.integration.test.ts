import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { withDatabase } from "@herald/db/testing";
import { spawnEntry, waitFor } from "./support/server-process.ts";
import { freePort } from "@herald/db/testing";

const maintenanceUrl = () => withDatabase(inject("templateUrl"), "postgres");
const databases: string[] = [];

async function emptyDatabase(setupSql?: string): Promise<string> {
  const name = `herald_proc_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: maintenanceUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  databases.push(name);
  const url = withDatabase(inject("templateUrl"), name);
  if (setupSql) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(setupSql);
    await client.end();
  }
  return url;
}

afterAll(async () => {
  const admin = new pg.Client({ connectionString: maintenanceUrl() });
  await admin.connect();
  for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

describe("the server process refuses bad starts with one clear line", () => {
  it("stops on a malformed environment variable", async () => {
    const run = spawnEntry("main", [], { PORT: "eighty" });
    expect(await run.exit).toBe(1);
    expect(run.output().trim()).toMatch(/^herald: Invalid environment variable PORT="eighty": /);
  });

  it("stops when DATABASE_URL is unreachable", async () => {
    const port = await freePort();
    const run = spawnEntry("main", [], { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/herald` });
    expect(await run.exit).toBe(1);
    expect(run.output()).toContain(`herald: Cannot reach the database at postgres://postgres@127.0.0.1:${port}/herald`);
  });

  it("stops on a migration that fails half-way, naming the file and the SQL error, with nothing applied", async () => {
    const url = await emptyDatabase("CREATE SCHEMA herald; CREATE TABLE herald.members (id int);");
    const run = spawnEntry("main", [], { DATABASE_URL: url, PORT: String(await freePort()) });
    expect(await run.exit).toBe(1);
    // Postgres reports no position for this error (a syntax error gets line:column, see migrate tests).
    expect(run.output()).toContain(
      'herald: Migration 20261130000000_init failed (migrations/20261130000000_init/migration.sql): relation "members" already exists',
    );
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'herald' ORDER BY 1");
    await client.end();
    expect(rows.map((r) => r.table_name)).toEqual(["members", "schema_migrations"]);
  });

  it("stops when its port is taken", async () => {
    const url = await emptyDatabase();
    const blocker = net.createServer().listen(0, "127.0.0.1");
    await new Promise((r) => blocker.once("listening", r));
    const port = (blocker.address() as net.AddressInfo).port;
    const run = spawnEntry("main", [], { DATABASE_URL: url, PORT: String(port), HOST: "127.0.0.1", HERALD_ROLE: "api" });
    expect(await run.exit).toBe(1);
    expect(run.output()).toContain(`herald: Port ${port} is already in use: stop what holds it or set PORT to another port`);
    blocker.close();
  });
});

describe("the server process on its embedded Postgres", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "herald-server-"));
  fs.chmodSync(scratch, 0o755);
  const dataDir = path.join(scratch, "pg");
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("shares the instance with the CLI, and stops it cleanly on SIGTERM", async () => {
    const port = await freePort();
    const env = { HERALD_DATA_DIR: dataDir, HERALD_PG_RUNTIME_DIR: scratch, PORT: String(port), HOST: "127.0.0.1" };
    const server = spawnEntry("main", [], env);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, "/readyz");
    const pidFile = path.join(dataDir, "postmaster.pid");
    const postmaster = fs.readFileSync(pidFile, "utf8").split("\n")[0];

    const cli = spawnEntry("cli", ["member:create", "--email", "ops@example.com", "--name", "Ops"], env, "a long enough password\n");
    expect(await cli.exit).toBe(0);
    expect(cli.output()).toContain("Created admin ops@example.com");
    expect(cli.output()).not.toContain("started on");
    // The server still has its database after the CLI left.
    const status = (await (await fetch(`http://127.0.0.1:${port}/trpc/setup.status`)).json()) as any;
    expect(status.result.data.needsFirstAdmin).toBe(false);
    expect(fs.readFileSync(pidFile, "utf8").split("\n")[0]).toBe(postmaster);

    server.child.kill("SIGTERM");
    expect(await server.exit).toBe(0);
    expect(server.output()).toContain("embedded Postgres stopped");
    expect(fs.existsSync(pidFile)).toBe(false);

    // With no server running, the CLI starts the instance itself and stops it again.
    const alone = spawnEntry("cli", ["member:create", "--email", "two@example.com", "--name", "Two", "--role", "viewer"], env, "another long password\n");
    expect(await alone.exit).toBe(0);
    expect(alone.output()).toContain("Created viewer two@example.com");
    expect(alone.output()).toContain("embedded Postgres stopped");
    expect(fs.existsSync(pidFile)).toBe(false);
  });
});
