import type { Sql } from "../sql.ts";

/**
 * Adds or replaces the one job under `key`, to run at `runAt` (graphile-worker's job_key): a
 * rescheduled broadcast moves its job rather than gaining a second one, and the schedule lives
 * in Postgres, so it survives restarts and any worker may run it.
 */
export async function scheduleKeyedJob(sql: Sql, task: string, payload: unknown, runAt: Date, key: string): Promise<void> {
  await sql.query("SELECT graphile_worker.add_job($1, $2::json, run_at := $3, job_key := $4, job_key_mode := 'replace', max_attempts := 25)", [
    task,
    JSON.stringify(payload),
    runAt,
    key,
  ]);
}

/** Removes the job under `key` unless a worker has already taken it. */
export async function removeKeyedJob(sql: Sql, key: string): Promise<void> {
  await sql.query("SELECT graphile_worker.remove_job($1)", [key]);
}
