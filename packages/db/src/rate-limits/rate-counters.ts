import type { Db } from "../client-types.ts";

export interface CounterState {
  count: number;
  /** Milliseconds until the window resets. */
  resetInMs: number;
}

/**
 * Counts one hit in a fixed window shared by every process. The single upsert is atomic, so
 * concurrent hits from several workers never lose a count.
 */
export async function hitCounter(db: Db, key: string, windowMs: number): Promise<CounterState> {
  const rows = await db.$queryRaw<{ count: number; reset_in_ms: number }[]>`
    INSERT INTO herald.rate_counters AS c (key, window_start, count)
    VALUES (${key}, now(), 1)
    ON CONFLICT (key) DO UPDATE SET
      window_start = CASE WHEN c.window_start <= now() - make_interval(secs => ${windowMs / 1000}) THEN now() ELSE c.window_start END,
      count        = CASE WHEN c.window_start <= now() - make_interval(secs => ${windowMs / 1000}) THEN 1 ELSE c.count + 1 END
    RETURNING count,
      GREATEST(0, EXTRACT(EPOCH FROM (window_start + make_interval(secs => ${windowMs / 1000}) - now())) * 1000)::float8 AS reset_in_ms`;
  const row = rows[0]!;
  return { count: row.count, resetInMs: Math.ceil(row.reset_in_ms) };
}

/** The current count without adding to it (0 when the window has passed). */
export async function peekCounter(db: Db, key: string, windowMs: number): Promise<CounterState> {
  const rows = await db.$queryRaw<{ count: number; reset_in_ms: number }[]>`
    SELECT count,
      GREATEST(0, EXTRACT(EPOCH FROM (window_start + make_interval(secs => ${windowMs / 1000}) - now())) * 1000)::float8 AS reset_in_ms
    FROM herald.rate_counters
    WHERE key = ${key} AND window_start > now() - make_interval(secs => ${windowMs / 1000})`;
  const row = rows[0];
  return row ? { count: row.count, resetInMs: Math.ceil(row.reset_in_ms) } : { count: 0, resetInMs: 0 };
}

export async function resetCounter(db: Db, key: string): Promise<void> {
  await db.rateCounter.deleteMany({ where: { key } });
}
