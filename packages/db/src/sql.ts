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
