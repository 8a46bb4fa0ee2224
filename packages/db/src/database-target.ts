import pg from "pg";
import { acquireEmbeddedPostgres, type EmbeddedPostgres } from "./embedded/embedded-postgres.ts";

export const MIN_POSTGRES_VERSION_NUM = 150000;

export interface DatabaseTargetOptions {
  /** DATABASE_URL; when set, nothing is started. */
  databaseUrl?: string | undefined;
  dataDir: string;
  runtimeDir: string;
  log: (message: string) => void;
}

/** Where a process's Postgres is, and how to let go of it. */
export interface DatabaseTarget {
  url: string;
  embedded: EmbeddedPostgres | null;
  release(): Promise<void>;
}

/** DATABASE_URL when given; otherwise the embedded instance of HERALD_DATA_DIR, started or attached. */
export async function resolveDatabaseTarget(options: DatabaseTargetOptions): Promise<DatabaseTarget> {
  if (options.databaseUrl) {
    await assertSupportedServer(options.databaseUrl);
    return { url: options.databaseUrl, embedded: null, release: async () => undefined };
  }
  const embedded = await acquireEmbeddedPostgres({
    dataDir: options.dataDir,
    runtimeDir: options.runtimeDir,
    database: "herald",
    log: options.log,
  });
  return { url: embedded.url, embedded, release: () => embedded.release() };
}

/** Fails with one clear sentence when the server is unreachable or older than PostgreSQL 15. */
export async function assertSupportedServer(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`Cannot reach the database at ${redactUrl(url)}: ${(error as Error).message}`);
  }
  try {
    const { rows } = await client.query<{ server_version_num: string }>("SHOW server_version_num");
    const version = Number(rows[0]?.server_version_num);
    if (version < MIN_POSTGRES_VERSION_NUM) {
      throw new Error(`Herald needs PostgreSQL 15 or newer; ${redactUrl(url)} runs ${Math.floor(version / 10000)}`);
    }
  } finally {
    await client.end();
  }
}

/** The URL without its password, for log lines and error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}
