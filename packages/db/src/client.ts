import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export type { PrismaClient } from "./generated/prisma/client.ts";
export type { Prisma } from "./generated/prisma/client.ts";

/** The one pool a process shares between Prisma and hand-written SQL. */
export interface Database {
  pool: pg.Pool;
  prisma: PrismaClient;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  max?: number;
  applicationName?: string;
}

/**
 * A connection losing its server (a Postgres restart, a terminated backend) must not crash the
 * process. The pool's own listener covers idle clients only; a client checked out and between
 * queries (a transaction held open across provider calls) emits the error on itself, where no
 * listener means an uncaught exception. Its queries still fail, and the pool discards it on
 * release (a client that is no longer queryable is never reused); the next checkout reconnects.
 */
export function surviveServerLoss(pool: pg.Pool): pg.Pool {
  pool.on("error", () => undefined);
  pool.on("connect", (client) => client.on("error", () => undefined));
  return pool;
}

export function openDatabase(url: string, options: OpenDatabaseOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? "herald",
    connectionTimeoutMillis: 10_000,
  });
  surviveServerLoss(pool);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    pool,
    prisma,
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
