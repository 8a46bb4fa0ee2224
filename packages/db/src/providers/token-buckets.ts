import type { Sql } from "../sql.ts";

/** Creates or re-sizes a provider's bucket; a new bucket starts full. */
export async function configureBucket(sql: Sql, provider: string, ratePerSecond: number, burst: number): Promise<void> {
  await sql.query(
    `INSERT INTO herald.provider_buckets (provider, rate_per_second, burst, tokens)
     VALUES ($1, $2, $3, $3)
     ON CONFLICT (provider) DO UPDATE SET rate_per_second = EXCLUDED.rate_per_second, burst = EXCLUDED.burst,
       tokens = least(herald.provider_buckets.tokens, EXCLUDED.burst)
     WHERE herald.provider_buckets.rate_per_second <> EXCLUDED.rate_per_second OR herald.provider_buckets.burst <> EXCLUDED.burst`,
    [provider, ratePerSecond, burst],
  );
}

/**
 * Takes up to `wanted` tokens in one row update, shared by every worker process, and says how
 * long until the next token when fewer were granted. `returned` hands back tokens taken earlier
 * and never used (they went stale before their calls started) in the same update; the bucket
 * fills no higher than its burst. A provider without a bucket is unpaced (`paced` false).
 */
export async function takeTokens(sql: Sql, provider: string, wanted: number, returned = 0): Promise<{ granted: number; waitMs: number; paced: boolean }> {
  const { rows } = await sql.query<{ granted: number; wait_ms: number }>({
    name: "herald_take_tokens_returning",
    text: "SELECT * FROM herald.take_tokens($1, $2, $3)",
    values: [provider, wanted, returned],
  });
  const row = rows[0];
  return row ? { granted: row.granted, waitMs: row.wait_ms, paced: true } : { granted: wanted, waitMs: 0, paced: false };
}

export interface BucketState {
  provider: string;
  ratePerSecond: number;
  burst: number;
  tokens: number;
}

export async function listBuckets(sql: Sql): Promise<BucketState[]> {
  const { rows } = await sql.query(
    `SELECT provider, rate_per_second, burst,
            least(burst, tokens + extract(epoch FROM clock_timestamp() - refilled_at) * rate_per_second) AS tokens
       FROM herald.provider_buckets ORDER BY provider`,
  );
  return rows.map((r) => ({ provider: r.provider, ratePerSecond: r.rate_per_second, burst: r.burst, tokens: Number(r.tokens) }));
}
