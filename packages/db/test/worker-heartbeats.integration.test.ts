import { describe, expect, it } from "vitest";
import { beat, reapDeadWorkers } from "../src/index.ts";
import { useTestDatabase } from "./support/test-database.ts";

const SILENCE_MS = 60_000;

/** Which pools' locks the reaper frees: a silent worker's, and those no heartbeat ever named. */
describe("reaping workers", () => {
  const test = useTestDatabase();

  /** A job (in a queue of its own) locked by `pool` since `ageS` seconds ago. */
  async function lockedJob(pool: string, ageS: number): Promise<string> {
    const sql = test.db.pool;
    const { rows } = await sql.query<{ id: string }>("SELECT id::text FROM graphile_worker.add_job('noop', '{}'::json, queue_name => $1)", [`q-${pool}`]);
    const locked = [pool, `${ageS} seconds`];
    await sql.query("UPDATE graphile_worker._private_jobs SET locked_by = $1, locked_at = now() - $2::interval WHERE id = $3", [...locked, rows[0]!.id]);
    await sql.query("UPDATE graphile_worker._private_job_queues SET locked_by = $1, locked_at = now() - $2::interval WHERE queue_name = $3", [...locked, `q-${pool}`]);
    return rows[0]!.id;
  }

  async function lockedBy(): Promise<Record<string, string | null>> {
    const jobs = await test.db.pool.query<{ queue_name: string; locked_by: string | null }>(
      "SELECT q.queue_name, j.locked_by FROM graphile_worker._private_jobs j JOIN graphile_worker._private_job_queues q ON q.id = j.job_queue_id",
    );
    const queues = await test.db.pool.query<{ queue_name: string; locked_by: string | null }>("SELECT queue_name, locked_by FROM graphile_worker._private_job_queues");
    const queueLock = new Map(queues.rows.map((q) => [q.queue_name, q.locked_by]));
    // A job and its queue are always freed together; anything else would leave the queue blocked.
    for (const job of jobs.rows) expect(queueLock.get(job.queue_name)).toBe(job.locked_by);
    return Object.fromEntries(jobs.rows.map((j) => [j.queue_name.slice(2), j.locked_by]));
  }

  it("frees a pool no heartbeat names once it has held its locks for two silences, and only then", async () => {
    const sql = test.db.pool;
    expect(await beat(sql, { id: "live", poolIds: ["pool-live"], hostname: "h", pid: 1 }, SILENCE_MS)).toEqual({ silentWorkers: false });
    await beat(sql, { id: "silent", poolIds: ["pool-silent"], hostname: "h", pid: 2 }, SILENCE_MS);
    await sql.query("UPDATE herald.worker_heartbeats SET last_seen_at = now() - interval '5 minutes' WHERE worker_id = 'silent'");
    // The live worker's next beat sees the silent one: its process reaps now (worker-runner).
    expect(await beat(sql, { id: "live", poolIds: ["pool-live"], hostname: "h", pid: 1 }, SILENCE_MS)).toEqual({ silentWorkers: true });
    await lockedJob("pool-live", 600); // a long job of a live worker
    await lockedJob("pool-silent", 5); // a dead worker's, taken just before it went quiet
    await lockedJob("pool-unnamed-old", 600); // a process killed before its first beat named the pool
    await lockedJob("pool-unnamed-new", 90); // a pool a live process is slow to name

    const reaped = await reapDeadWorkers(sql, SILENCE_MS, 600_000);

    expect(reaped.workers).toEqual(["silent"]);
    expect(await lockedBy()).toEqual({
      "pool-live": "pool-live",
      "pool-silent": null,
      "pool-unnamed-old": null,
      "pool-unnamed-new": "pool-unnamed-new",
    });
    const { rows } = await sql.query("SELECT worker_id FROM herald.worker_heartbeats");
    expect(rows).toEqual([{ worker_id: "live" }]);
    expect(await beat(sql, { id: "live", poolIds: ["pool-live"], hostname: "h", pid: 1 }, SILENCE_MS)).toEqual({ silentWorkers: false });
  });
});
