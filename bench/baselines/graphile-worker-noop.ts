import { EventEmitter } from "node:events";
import { Logger, run, type Runner, type WorkerEvents } from "graphile-worker";
import pg from "pg";

const TASK = "bench_noop";

/**
 * The dispatch baseline's ceiling: graphile-worker draining jobs whose task does nothing, with
 * the runner settings Herald's channel runners use (poll interval, batched completion) and
 * their total concurrency in one runner. What is left is the queue's own cost per job: fetch,
 * lock, complete.
 */
export interface NoopDrain {
  /** Adds `jobs` jobs (each with a payload of `idsPerJob` ids, like a Herald batch) in one statement, and times their drain. */
  drain(jobs: number, idsPerJob: number): Promise<{ durationMs: number }>;
  stop(): Promise<void>;
}

export async function startNoopDrain(url: string, concurrency: number): Promise<NoopDrain> {
  let completed = 0;
  let lastCompletedAt = 0;
  let waiter: { target: number; resolve: () => void } | null = null;
  const events: WorkerEvents = new EventEmitter();
  events.on("job:complete", () => {
    completed++;
    lastCompletedAt = performance.now();
    if (waiter && completed >= waiter.target) waiter.resolve();
  });
  const runner: Runner = await run({
    connectionString: url,
    concurrency,
    maxPoolSize: concurrency + 2,
    pollInterval: 2000,
    noHandleSignals: true,
    logger: new Logger(() => () => undefined),
    events,
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    taskList: { [TASK]: async () => undefined },
  });
  const sql = new pg.Client({ connectionString: url, application_name: "bench-noop-drain" });
  await sql.connect();

  const remaining = async () =>
    (await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = $1", [TASK])).rows[0]!.n;

  return {
    drain: async (jobs, idsPerJob) => {
      const target = completed + jobs;
      const done = new Promise<void>((resolve) => (waiter = { target, resolve }));
      const started = performance.now();
      await sql.query(
        `SELECT count(*) FROM graphile_worker.add_jobs(ARRAY(
           SELECT ($1::text, json_build_object('ids', (SELECT json_agg((g * 1000 + k)::text) FROM generate_series(1, $3::int) k)),
                   NULL, NULL, 25, NULL, 0, NULL)::graphile_worker.job_spec
             FROM generate_series(1, $2::int) g))`,
        [TASK, jobs, idsPerJob],
      );
      await done;
      waiter = null;
      // The last completions are written by graphile-worker's batcher right after the task
      // returns: the drain ends when the queue is empty in Postgres, not just in memory.
      while ((await remaining()) > 0) await new Promise((r) => setTimeout(r, 2));
      return { durationMs: Math.max(lastCompletedAt, performance.now()) - started };
    },
    stop: async () => {
      await sql.end();
      await runner.stop();
    },
  };
}
