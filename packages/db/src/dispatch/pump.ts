import type { Sql } from "../sql.ts";

export interface PumpOptions {
  /** Notifications per graphile-worker job. */
  batchSize: number;
  /** Jobs per channel that may wait unstarted before the pump holds back. */
  maxQueuedBatches: number;
  /** Rows due within this many milliseconds get their job now, with run_at = next_attempt_at. */
  lookaheadMs: number;
}

export interface PumpResult {
  channel: string;
  lane: string;
  notifications: number;
  jobs: number;
}

/** One pass of the outbox pump (herald.pump): safe to run from any number of processes at once. */
export async function pumpOnce(sql: Sql, options: PumpOptions): Promise<PumpResult[]> {
  const { rows } = await sql.query<PumpResult>(
    "SELECT * FROM herald.pump($1, $2, make_interval(secs => $3::float8 / 1000))",
    [options.batchSize, options.maxQueuedBatches, options.lookaheadMs],
  );
  return rows;
}
