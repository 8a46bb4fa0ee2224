import type pg from "pg";

/** Anything that runs a query: the pool, or a client inside a transaction. */
export type Sql = Pick<pg.Pool, "query">;

/** Runs `fn` in one transaction on one client: committed when it resolves, rolled back when it throws. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
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
