import type { Sql } from "../sql.ts";

/**
 * This process is alive, and these graphile-worker pools' locks are its own. Answers whether
 * another worker has been silent for `silenceMs`: a beating process reaps it at once, rather than
 * leaving its jobs to the next minute's reaper.
 */
export async function beat(
  sql: Sql,
  worker: { id: string; poolIds: string[]; hostname: string; pid: number },
  silenceMs: number,
): Promise<{ silentWorkers: boolean }> {
  const { rows } = await sql.query<{ silent_workers: boolean }>(
    `WITH beat AS (
       INSERT INTO herald.worker_heartbeats (worker_id, pool_ids, hostname, pid)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (worker_id) DO UPDATE SET pool_ids = EXCLUDED.pool_ids, last_seen_at = now())
     SELECT EXISTS (
       SELECT 1 FROM herald.worker_heartbeats
        WHERE worker_id <> $1 AND last_seen_at < now() - make_interval(secs => $5::float8 / 1000)) AS silent_workers`,
    [worker.id, worker.poolIds, worker.hostname, worker.pid, silenceMs],
  );
  return { silentWorkers: rows[0]?.silent_workers ?? false };
}

export async function removeHeartbeat(sql: Sql, workerId: string): Promise<void> {
  await sql.query("DELETE FROM herald.worker_heartbeats WHERE worker_id = $1", [workerId]);
}

/**
 * Frees the jobs and queues locked by graphile-worker pools that will never finish them (a
 * dead process's, or a runner of a live one that exited on a database outage). Without this
 * they stay locked for four hours.
 */
export async function releaseWorkerPools(sql: Sql, poolIds: readonly string[]): Promise<void> {
  if (poolIds.length > 0) await sql.query("SELECT graphile_worker.force_unlock_workers($1::text[])", [poolIds]);
}

export interface ReapResult {
  workers: string[];
  requeued: number;
}

/**
 * graphile-worker leaves a killed worker's jobs locked for four hours. Workers silent for
 * `silenceMs` are declared dead and their locks released at once, so their jobs run again
 * (and may take back their own in-flight rows). Rows stuck in flight for `stuckMs` — their job
 * lost — go back to the pump. A row still waiting for the job it was queued with is not stuck,
 * however long the queue: a broadcast's fan-out queues the jobs of a million rows at once. That
 * job was added in the transaction that set job_queued_at, so it carries the same created_at.
 */
export async function reapDeadWorkers(sql: Sql, silenceMs: number, stuckMs: number): Promise<ReapResult> {
  const { rows } = await sql.query<{ worker_id: string; pool_ids: string[] }>(
    `DELETE FROM herald.worker_heartbeats
      WHERE last_seen_at < now() - make_interval(secs => $1::float8 / 1000)
      RETURNING worker_id, pool_ids`,
    [silenceMs],
  );
  await releaseWorkerPools(sql, [...rows.flatMap((r) => r.pool_ids), ...(await unnamedPools(sql, silenceMs))]);
  const requeued = await sql.query(
    `UPDATE herald.notifications SET dispatch_state = CASE WHEN dispatch_state = 'in_flight' THEN 'queued' ELSE dispatch_state END,
            job_queued_at = NULL, in_flight_job = NULL, updated_at = now()
      WHERE (dispatch_state = 'in_flight' OR (job_queued_at IS NOT NULL AND dispatch_state <> 'done'))
        AND updated_at < now() - make_interval(secs => $1::float8 / 1000)
        AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.id = herald.notifications.in_flight_job)
        AND (dispatch_state = 'in_flight' OR NOT EXISTS (
          SELECT 1 FROM graphile_worker._private_jobs j
           WHERE j.created_at = herald.notifications.job_queued_at AND j.attempts < j.max_attempts))`,
    [stuckMs],
  );
  return { workers: rows.map((r) => r.worker_id), requeued: requeued.rowCount ?? 0 };
}

/**
 * Pools that no heartbeat names, holding locks for longer than two silences. A live process
 * names a new pool in the beat right after the pool starts, a quarter silence at most; one
 * killed before that beat (starting up, or restarting a runner after a database outage) left
 * locks no heartbeat ever listed, which the silent-worker rule above can never free. The second
 * silence is margin for a slow start: freeing a live pool's job would run it twice.
 */
async function unnamedPools(sql: Sql, silenceMs: number): Promise<string[]> {
  const { rows } = await sql.query<{ pool_id: string }>(
    `WITH named AS (SELECT unnest(pool_ids) AS pool_id FROM herald.worker_heartbeats),
          held AS (
            SELECT locked_by, locked_at FROM graphile_worker._private_jobs WHERE locked_by IS NOT NULL
            UNION ALL
            SELECT locked_by, locked_at FROM graphile_worker._private_job_queues WHERE locked_by IS NOT NULL)
     SELECT DISTINCT locked_by AS pool_id FROM held
      WHERE locked_at < now() - make_interval(secs => 2 * $1::float8 / 1000)
        AND locked_by NOT IN (SELECT pool_id FROM named)`,
    [silenceMs],
  );
  return rows.map((r) => r.pool_id);
}
