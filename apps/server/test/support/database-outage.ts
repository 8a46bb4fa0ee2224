import { databaseName, withDatabase } from "@herald/db/testing";
import pg from "pg";
import pino, { type Logger } from "pino";
import { waitFor } from "./server-process.ts";

/** Takes a test database away from its clients and gives it back, as a restart would. */
export interface DatabaseOutage {
  /** Refuses new connections and ends every existing one but the admin's. */
  begin(): Promise<void>;
  /** Accepts connections again. */
  end(): Promise<void>;
  close(): Promise<void>;
}

export async function databaseOutage(url: string): Promise<DatabaseOutage> {
  const name = databaseName(url);
  const admin = new pg.Client({ connectionString: withDatabase(url, "postgres") });
  await admin.connect();
  const allow = (allowed: boolean) => admin.query(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS ${allowed}`);
  return {
    begin: async () => {
      await allow(false);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);
    },
    end: async () => void (await allow(true)),
    close: () => admin.end(),
  };
}

/**
 * A pino logger whose lines the test keeps: to wait on what the code under test says, and to
 * show all of it when a step times out.
 */
export function capturedLog() {
  const lines: string[] = [];
  const log: Logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(line) });
  const count = (message: string) => lines.filter((l) => l.includes(message)).length;
  const step = (what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number) =>
    waitFor(async () => condition(), what, timeoutMs).catch((error: Error) => {
      throw new Error(`${error.message} (${timeoutMs} ms). The log:\n${lines.join("")}`);
    });
  return { lines, log, count, logged: (message: string) => count(message) > 0, step };
}
