import type { Sql } from "../sql.ts";

export interface StoredBreaker {
  key: string;
  state: "closed" | "open" | "half_open";
  consecutiveFailures: number;
  openedAt: Date | null;
  reason: string | null;
  updatedAt: Date;
}

export async function listBreakers(sql: Sql): Promise<StoredBreaker[]> {
  const { rows } = await sql.query(
    "SELECT breaker_key, state, consecutive_failures, opened_at, reason, updated_at FROM herald.provider_breakers ORDER BY breaker_key",
  );
  return rows.map((r) => ({
    key: r.breaker_key,
    state: r.state,
    consecutiveFailures: r.consecutive_failures,
    openedAt: r.opened_at,
    reason: r.reason,
    updatedAt: r.updated_at,
  }));
}

/**
 * Writes a transition, only if the stored state is still the one the caller saw: of two
 * workers racing to half-open a breaker, one wins the trial.
 */
export async function transitionBreaker(
  sql: Sql,
  key: string,
  expected: StoredBreaker["state"],
  next: Pick<StoredBreaker, "state" | "consecutiveFailures" | "openedAt" | "reason">,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `INSERT INTO herald.provider_breakers AS b (breaker_key, state, consecutive_failures, opened_at, reason)
     VALUES ($1, $3, $4, $5, $6)
     ON CONFLICT (breaker_key) DO UPDATE SET state = EXCLUDED.state, consecutive_failures = EXCLUDED.consecutive_failures,
       opened_at = EXCLUDED.opened_at, reason = EXCLUDED.reason, updated_at = now()
     WHERE b.state = $2`,
    [key, expected, next.state, next.consecutiveFailures, next.openedAt, next.reason],
  );
  return rowCount === 1;
}
