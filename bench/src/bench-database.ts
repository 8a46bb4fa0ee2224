import { randomBytes } from "node:crypto";
import { migrate, redactUrl, resolveDatabaseTarget } from "@herald/db";
import { withDatabase } from "@herald/db/testing";
import { Logger, runMigrations } from "graphile-worker";
import pg from "pg";
import type { BenchEnv } from "./bench-env.ts";

/** The Postgres the bench runs on, and what it is. */
export interface BenchCluster {
  /** A URL on the cluster; databases are created beside it. */
  url: string;
  description: string;
  /** `SHOW server_version`. */
  version: string;
  settings: Record<string, string>;
  release(): Promise<void>;
}

/** A database of one scenario's own. */
export interface BenchDatabase {
  name: string;
  url: string;
  /** Terminates its connections and starts dropping it; `settleDrops` waits for the drop. */
  drop(): Promise<void>;
}

const REPORTED_SETTINGS = ["shared_buffers", "fsync", "synchronous_commit", "max_connections"];

/** DATABASE_URL's server, or the embedded instance of .herald/bench-pg (started, or attached). */
export async function startBenchCluster(env: BenchEnv, log: (message: string) => void): Promise<BenchCluster> {
  const target = await resolveDatabaseTarget({
    databaseUrl: env.databaseUrl,
    dataDir: env.embeddedDataDir,
    runtimeDir: env.pgRuntimeDir,
    log,
  });
  try {
    const { version, settings } = await withClient(target.url, async (c) => {
      const version = (await c.query<{ server_version: string }>("SHOW server_version")).rows[0]!.server_version;
      const { rows } = await c.query<{ name: string; setting: string; unit: string | null }>(
        "SELECT name, setting, unit FROM pg_settings WHERE name = ANY ($1)",
        [REPORTED_SETTINGS],
      );
      return { version, settings: Object.fromEntries(rows.map((r) => [r.name, formatSetting(r.setting, r.unit)])) };
    });
    return {
      url: target.url,
      description: target.embedded ? `embedded (${target.embedded.dataDir})` : redactUrl(target.url),
      version,
      settings,
      release: () => target.release(),
    };
  } catch (error) {
    await target.release();
    throw error;
  }
}

/**
 * A fresh database named herald_bench_<timestamp>_<random>_<label>, with Herald's migrations
 * (unless `herald` is false) and graphile-worker's schema installed, as a worker process needs.
 */
export async function createBenchDatabase(clusterUrl: string, label: string, options: { herald?: boolean } = {}): Promise<BenchDatabase> {
  const name = benchDatabaseName(label);
  await withClient(withDatabase(clusterUrl, "postgres"), (c) => c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  const url = withDatabase(clusterUrl, name);
  if (options.herald !== false) await migrate(url);
  await runMigrations({ connectionString: url, logger: new Logger(() => () => undefined) });
  return benchDatabase(clusterUrl, name);
}

/**
 * A copy of `source` (which must have no connection open), file by file: seconds for a
 * database that took minutes to generate, so every round of a scenario can start from the same
 * state rather than from what the previous round left behind.
 */
export async function copyBenchDatabase(clusterUrl: string, source: BenchDatabase, label: string): Promise<BenchDatabase> {
  const name = benchDatabaseName(label);
  await withClient(withDatabase(clusterUrl, "postgres"), (c) =>
    c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(source.name)} STRATEGY FILE_COPY`),
  );
  return benchDatabase(clusterUrl, name);
}

function benchDatabaseName(label: string): string {
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  return `herald_bench_${stamp}_${randomBytes(2).toString("hex")}_${label.replace(/[^a-z0-9]/g, "_")}`;
}

function benchDatabase(clusterUrl: string, name: string): BenchDatabase {
  const maintenanceUrl = withDatabase(clusterUrl, "postgres");
  return {
    name,
    url: withDatabase(clusterUrl, name),
    drop: async () => {
      const dropping = withClient(maintenanceUrl, async (c) => {
        // pg-pool's end() resolves before its sockets have closed; a FORCE in that moment ends
        // them with 57P01, which their pool reports as an unhandled error and the run dies. So
        // the scenario's own connections get two seconds to go, and FORCE ends only leftovers.
        for (let waited = 0; waited < 2_000; waited += 50) {
          const { rows } = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [name]);
          if (rows[0]!.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      }).then(
        () => undefined,
        (error: unknown) => {
          process.stderr.write(`bench: dropping ${name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
        },
      );
      pendingDrops.add(dropping);
      void dropping.finally(() => pendingDrops.delete(dropping));
    },
  };
}

/**
 * DROP DATABASE waits for a checkpoint of the whole cluster (seconds, more on a busy machine),
 * so a scenario's drop runs in the background while the next one sets up; `interleave` and the
 * end of the run wait for it, so no round is ever timed while a checkpoint is being forced.
 */
const pendingDrops = new Set<Promise<void>>();

/** Resolves once every database dropped so far is gone. */
export async function settleDrops(): Promise<void> {
  while (pendingDrops.size > 0) await Promise.all(pendingDrops);
}

/**
 * A pool on a bench database. An idle connection that Postgres ends (57P01: a forced drop or
 * pg_terminate_backend) is logged rather than left to pg-pool's unhandled 'error' event, which
 * kills the whole run and its table.
 */
export function openBenchPool(url: string, max: number, log: (message: string) => void): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, application_name: "herald-bench" });
  pool.on("error", (error) => log(`  an idle bench connection was closed by the server: ${error.message}`));
  return pool;
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: "herald-bench" });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function formatSetting(setting: string, unit: string | null): string {
  if (unit === "8kB") return `${Math.round((Number(setting) * 8) / 1024)}MB`;
  return unit ? `${setting}${unit}` : setting;
}

/**
 * Where the cluster's write-ahead log is, in bytes: diff two readings to learn how much a round
 * wrote (every contender on the cluster alike, full-page images included).
 */
export async function walBytes(sql: Pick<pg.Client, "query">): Promise<number> {
  const { rows } = await sql.query<{ b: string }>("SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::text AS b");
  return Number(rows[0]!.b);
}
