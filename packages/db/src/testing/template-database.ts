import { createHash } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { resolveDatabaseTarget, type DatabaseTarget } from "../database-target.ts";
import { acquireEmbeddedPostgres, type EmbeddedPostgres } from "../embedded/embedded-postgres.ts";
import { migrate, readMigrations } from "../migrate.ts";

const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const TEMPLATE_LOCK_ID = 727_274_002;

export interface TestCluster {
  /** URL of the migrated template database; test files clone it. */
  templateUrl: string;
  /** The embedded server's data directory, or null when DATABASE_URL names the server. */
  embeddedDataDir: string | null;
  release(): Promise<void>;
}

export interface TestClusterOptions {
  /** Distinguishes templates with extra setup (e.g. graphile-worker's schema). */
  flavor: string;
  /** Runs once against a freshly migrated template, before it is frozen. */
  prepare?: (url: string) => Promise<void>;
  /** The embedded server's data directory when DATABASE_URL is unset (default: HERALD_TEST_DATA_DIR, else .herald/test-pg). */
  dataDir?: string;
}

const runtimeDir = () => process.env.HERALD_PG_RUNTIME_DIR ?? "/var/lib/herald";

/**
 * Tests follow the server's rule: DATABASE_URL when set, otherwise the embedded instance of
 * .herald/test-pg. The template is named after the migrations' checksums, so a new migration
 * builds a new template and an unchanged tree reuses the last one.
 */
export async function startTestCluster(options: TestClusterOptions): Promise<TestCluster> {
  const target: DatabaseTarget = await resolveDatabaseTarget({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: options.dataDir ?? process.env.HERALD_TEST_DATA_DIR ?? path.join(REPO_ROOT, ".herald", "test-pg"),
    runtimeDir: runtimeDir(),
    log: () => undefined,
  });
  const digest = createHash("sha256")
    .update(readMigrations().map((m) => m.checksum).join(","))
    .update(options.flavor)
    .digest("hex")
    .slice(0, 16);
  const templateName = `herald_tpl_${digest}`;
  const templateUrl = withDatabase(target.url, templateName);

  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  try {
    await admin.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK_ID]);
    const { rows } = await admin.query<{ datistemplate: boolean }>(
      "SELECT datistemplate FROM pg_database WHERE datname = $1",
      [templateName],
    );
    if (!rows[0]?.datistemplate) {
      if (rows[0]) await admin.query(`DROP DATABASE ${pg.escapeIdentifier(templateName)}`);
      await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(templateName)}`);
      await migrate(templateUrl);
      await options.prepare?.(templateUrl);
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(templateName)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    }
  } finally {
    await admin.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK_ID]).catch(() => undefined);
    await admin.end();
  }
  return { templateUrl, embeddedDataDir: target.embedded?.dataDir ?? null, release: () => target.release() };
}

/** A lease on the embedded test server of `dataDir`, to stop and start it under a running scenario. */
export function attachEmbeddedServer(dataDir: string): Promise<EmbeddedPostgres> {
  return acquireEmbeddedPostgres({ dataDir, runtimeDir: runtimeDir(), database: "herald", log: () => undefined });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}
