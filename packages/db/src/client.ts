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

export function openDatabase(url: string, options: OpenDatabaseOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? "herald",
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its server (a Postgres restart) must not crash the process: the pool
  // discards it and the next query reconnects.
  pool.on("error", () => undefined);
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
