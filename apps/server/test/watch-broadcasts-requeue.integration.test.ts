import { queueBroadcastWatch } from "@herald/db";
import { Logger, parseCrontab, run, type JobHelpers, type Runner } from "graphile-worker";
import { describe, expect, it } from "vitest";
import { WATCH_BROADCASTS_CRONTAB, WATCH_INTERVAL_MS, watchBroadcastsTask } from "../src/tasks/watch-broadcasts.ts";
import { useBroadcastWorkspace } from "./support/sending-broadcast.ts";

const LIMITS = { maxBouncePercent: 5, maxComplaintPercent: 0.1 };
const helpers = { logger: { warn: () => undefined, info: () => undefined } } as unknown as JobHelpers;
const NOW = new Date("2026-12-01T10:00:00.000Z");

describe("the broadcast watch while something is sending", () => {
  const workspace = useBroadcastWorkspace();

  /** A sending broadcast, fan-out done, with `pending` rows still to send and one delivered. */
  async function sending(pending: number): Promise<string> {
    const sql = workspace.database.pool;
    const id = await workspace.startSending();
    await sql.query(
      `WITH u AS (INSERT INTO herald.users (external_id, email) SELECT 'r' || $1 || '-' || i, 'r' || $1 || '-' || i || '@example.com' FROM generate_series(0, $2::int) i RETURNING id)
       INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, template_key, template_version, status, dispatch_state, broadcast_id)
       SELECT 'broadcast:' || $1 || ':' || u.id || ':email', u.id, 'broadcast', 'email', 'marketing', 'news', 1,
              CASE WHEN u.id = (SELECT min(id) FROM u) THEN 'delivered' ELSE 'pending' END,
              CASE WHEN u.id = (SELECT min(id) FROM u) THEN 'done' ELSE 'queued' END, $1::bigint
         FROM u`,
      [id, pending],
    );
    return id;
  }

  const status = async (id: string) => (await workspace.database.pool.query("SELECT status FROM herald.broadcasts WHERE id = $1", [id])).rows[0].status;
  const watchJobs = async () =>
    (await workspace.database.pool.query("SELECT key, queue_name, run_at, locked_at FROM graphile_worker.jobs WHERE task_identifier = 'watch_broadcasts' ORDER BY id")).rows;
  const settle = (id: string) => workspace.database.pool.query("UPDATE herald.notifications SET status = 'delivered', dispatch_state = 'done' WHERE broadcast_id = $1", [id]);

  async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string): Promise<T> {
    for (let i = 0; i < 300; i++) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`never happened: ${what}`);
  }

  it("queues one successor a few seconds ahead while a broadcast sends; repeated runs and kicks add no second job", async () => {
    const id = await sending(2);
    const task = watchBroadcastsTask(workspace.database.pool, async () => LIMITS, () => NOW);
    await task({}, helpers);
    const successor = { key: "watch_broadcasts", queue_name: "watch_broadcasts", run_at: new Date(NOW.getTime() + WATCH_INTERVAL_MS), locked_at: null };
    expect(await watchJobs()).toEqual([successor]);
    // Another run, and a kick asking for "now", keep the one waiting job and its time.
    await task({}, helpers);
    await queueBroadcastWatch(workspace.database.pool, NOW);
    expect(await watchJobs()).toEqual([successor]);

    // Once nothing is sending, the run that completes the broadcast queues nothing more.
    await settle(id);
    await workspace.database.pool.query("SELECT graphile_worker.remove_job('watch_broadcasts')");
    await task({}, helpers);
    expect(await status(id)).toBe("sent");
    expect(await watchJobs()).toEqual([]);
  });

  it("has the minute's cron tick share the watch's queue and key, so it neither overlaps nor doubles a run", () => {
    const [item] = parseCrontab(WATCH_BROADCASTS_CRONTAB);
    expect(item!.task).toBe("watch_broadcasts");
    expect(item!.options).toMatchObject({ backfillPeriod: 0, maxAttempts: 1, queueName: "watch_broadcasts", jobKey: "watch_broadcasts", jobKeyMode: "preserve_run_at" });
  });

  it("marks a broadcast sent within seconds of its last row settling, on a real worker with no cron at all", async () => {
    const id = await sending(3);
    let runner: Runner | undefined;
    try {
      // The test's own pool: graphile-worker ends a pool it made without waiting, and the
      // database drop at teardown could end one of its connections first (an uncaught error).
      runner = await run({
        pgPool: workspace.database.pool,
        concurrency: 1,
        pollInterval: 200,
        noHandleSignals: true,
        logger: new Logger(() => () => undefined),
        taskList: { watch_broadcasts: watchBroadcastsTask(workspace.database.pool, async () => LIMITS) },
      });
      await queueBroadcastWatch(workspace.database.pool, new Date());
      // The first run finds it sending and queues its successor.
      await eventually(watchJobs, (jobs) => jobs.length === 1 && jobs[0].locked_at === null && jobs[0].run_at > new Date(), "a successor queued");
      await settle(id);
      // Only a re-queued run can notice: this worker has no crontab.
      await eventually(() => status(id), (s) => s === "sent", "the broadcast marked sent");
      // The run that saw nothing sending queued nothing: the loop stops by itself.
      await eventually(watchJobs, (jobs) => jobs.length === 0, "no watch left queued");
    } finally {
      await runner?.stop();
    }
  });
});
