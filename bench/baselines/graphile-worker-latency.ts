import { Logger, run, type Runner } from "graphile-worker";
import pg from "pg";

const TASK = "bench_latency";

/** Herald's runners use this poll interval (apps/server/src/workers/worker-runner.ts): pickup is LISTEN/NOTIFY-driven. */
export const HERALD_RUNNER_POLL_INTERVAL_MS = 2000;

const CLOCK = { name: "bench_latency_clock", text: "SELECT extract(epoch FROM clock_timestamp())::float8 AS t" };
const ADD_JOB = { name: "bench_latency_add_job", text: "SELECT graphile_worker.add_job($1, json_build_object('key', $2::text))" };
const IDLE = { name: "bench_latency_idle", text: "SELECT NOT EXISTS (SELECT 1 FROM graphile_worker.jobs WHERE task_identifier = $1) AS idle" };

/** One job's way from add_job to its task, on Postgres's clock. */
export interface JobLatency {
  /** clock_timestamp() at the task's start minus clock_timestamp() just before add_job, ms. */
  latencyMs: number;
  /** The same span on the bench's own clock, from before the clock query to the task's answer (an upper bound). */
  clientMs: number;
}

/**
 * The critical-idle baseline: graphile-worker's own latency from `add_job` to the start of the
 * task on an idle runner, with the settings of Herald's channel runners (2 s poll interval, so
 * the job is picked up through LISTEN/NOTIFY; batched completion). One job at a time: the next
 * is added only when the previous one has completed. What is left is the queue's floor for
 * "a row is committed → code runs": NOTIFY, the runner's get_job, and one query in the task.
 */
export interface GraphileLatencyProbe {
  /** Adds one job (its payload names `key`) and waits for its task to start. */
  measureOne(key: string, timeoutMs: number): Promise<JobLatency>;
  stop(): Promise<void>;
}

export async function startGraphileLatencyProbe(url: string, options: { concurrency: number }): Promise<GraphileLatencyProbe> {
  const waiting = new Map<string, (startedAt: number) => void>();
  const runner: Runner = await run({
    connectionString: url,
    concurrency: options.concurrency,
    maxPoolSize: options.concurrency + 2,
    pollInterval: HERALD_RUNNER_POLL_INTERVAL_MS,
    noHandleSignals: true,
    logger: new Logger(() => () => undefined),
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    taskList: {
      [TASK]: async (payload, helpers) => {
        // The task's first act: read Postgres's clock (the same server the bench's clock reads).
        const { rows } = await helpers.query<{ t: number }>(CLOCK.text);
        const key = String((payload as { key?: unknown }).key);
        waiting.get(key)?.(rows[0]!.t);
      },
    },
  });
  // One connection reads the clock, another adds the job, as Herald's bench posts on its own socket.
  const clock = new pg.Client({ connectionString: url, application_name: "bench-latency-clock" });
  const client = new pg.Client({ connectionString: url, application_name: "bench-latency-client" });
  try {
    await clock.connect();
    await client.connect();
  } catch (error) {
    await Promise.allSettled([clock.end(), client.end(), runner.stop()]);
    throw error;
  }

  /** The previous job completed (its row is gone): the runner is idle again. */
  const untilIdle = async (deadline: number) => {
    while (!(await client.query<{ idle: boolean }>({ ...IDLE, values: [TASK] })).rows[0]!.idle) {
      if (Date.now() > deadline) throw new Error(`a ${TASK} job is still in graphile_worker.jobs`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  return {
    measureOne: async (key, timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      await untilIdle(deadline);
      let timer: NodeJS.Timeout | undefined;
      const started = new Promise<number>((resolve, reject) => {
        waiting.set(key, resolve);
        timer = setTimeout(() => reject(new Error(`the ${TASK} job ${key} did not start within ${timeoutMs} ms`)), timeoutMs);
      });
      started.catch(() => undefined);
      try {
        const clientStart = performance.now();
        const before = (await clock.query<{ t: number }>(CLOCK)).rows[0]!.t;
        await client.query({ ...ADD_JOB, values: [TASK, key] });
        const startedAt = await started;
        return { latencyMs: (startedAt - before) * 1000, clientMs: performance.now() - clientStart };
      } finally {
        clearTimeout(timer);
        waiting.delete(key);
      }
    },
    stop: async () => {
      await Promise.allSettled([clock.end(), client.end()]);
      await runner.stop();
    },
  };
}
