import type pg from "pg";
import { expect } from "vitest";

// Bookkeeping a refused request may legitimately touch: a key's last_used_at and its rate counter.
const IGNORED = ["api_keys", "rate_counters", "schema_migrations"];

/**
 * Every herald.* table's row count and a digest of its rows, so a test can show that a refused
 * request wrote (or changed) nothing anywhere. `only`: just these tables, where running
 * processes keep writing the others (heartbeats, buckets, analytics rollups).
 */
export async function snapshotTables(pool: pg.Pool, only?: readonly string[]): Promise<Record<string, string>> {
  const { rows: tables } = await pool.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'herald' AND NOT (tablename = ANY ($1)) AND ($2::text[] IS NULL OR tablename = ANY ($2)) ORDER BY 1",
    [IGNORED, only ?? null],
  );
  const { rows } = await pool.query<{ name: string; n: number; digest: string }>(
    tables
      .map(
        ({ name }) =>
          `SELECT '${name}' AS name, count(*)::int AS n, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS digest FROM herald.${name} t`,
      )
      .join(" UNION ALL "),
  );
  const snapshot: Record<string, string> = {};
  for (const { name, n, digest } of rows) snapshot[name] = `${n} rows, ${digest}`;
  return snapshot;
}

/** Runs a request that must be refused and asserts that no herald.* row was written or changed. */
export async function withoutWrites<T>(pool: pg.Pool, request: () => Promise<T>): Promise<T> {
  const before = await snapshotTables(pool);
  const result = await request();
  expect(await snapshotTables(pool), "a refused request wrote to the database").toEqual(before);
  return result;
}

/** The number of rows in one herald.* table. */
export async function countRows(pool: pg.Pool, table: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM herald.${table}`);
  return rows[0]!.n;
}
