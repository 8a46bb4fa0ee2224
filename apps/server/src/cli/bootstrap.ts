import { migrate, openDatabase, resolveDatabaseTarget, type Database } from "@herald/db";
import { loadEnv, type Env } from "../env.ts";

export interface CliContext {
  env: Env;
  database: Database;
  databaseUrl: string;
}

/**
 * Runs `fn` against the same database as the server: DATABASE_URL, or the embedded instance of
 * HERALD_DATA_DIR (attached when the server already runs it, started and stopped otherwise).
 */
export async function withCliContext<T>(fn: (ctx: CliContext) => Promise<T>, options: { migrate?: boolean } = {}): Promise<T> {
  const env = loadEnv();
  const target = await resolveDatabaseTarget({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.HERALD_DATA_DIR,
    runtimeDir: env.HERALD_PG_RUNTIME_DIR,
    log: (message) => process.stderr.write(`${message}\n`),
  });
  try {
    if (options.migrate !== false) await migrate(target.url);
    const database = openDatabase(target.url, { max: 2, applicationName: "herald-cli" });
    try {
      return await fn({ env, database, databaseUrl: target.url });
    } finally {
      await database.close();
    }
  } finally {
    await target.release();
  }
}
