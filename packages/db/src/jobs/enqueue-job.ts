import type { Sql } from "../sql.ts";

/**
 * Adds one graphile-worker job from SQL, in the caller's transaction when given one: a webhook's
 * recorded row and the job that applies it commit together or not at all.
 */
export async function enqueueJob(sql: Sql, task: string, payload: unknown, options: { delayMs?: number } = {}): Promise<void> {
  await sql.query("SELECT graphile_worker.add_job($1, $2::json, run_at := now() + make_interval(secs => $3::float8 / 1000))", [
    task,
    JSON.stringify(payload),
    options.delayMs ?? 0,
  ]);
}
