import type { Database } from "@herald/db";
import { Logger as WorkerLogger, run, type Runner, type TaskList } from "graphile-worker";
import type { Logger } from "pino";
import type { WorkerState } from "../http/health.ts";
import { pruneSessions } from "../tasks/prune-sessions.ts";

export interface Workers {
  state(): WorkerState;
  /** Stops taking jobs and waits for the running ones to finish. */
  stop(): Promise<void>;
}

export interface WorkerOptions {
  databaseUrl: string;
  database: Database;
  log: Logger;
  /** Tasks beyond the built-in ones (tests add their own). */
  extraTasks?: TaskList;
}

/** graphile-worker in this process: it installs its own schema on first start. */
export async function startWorkers({ databaseUrl, database, log, extraTasks }: WorkerOptions): Promise<Workers> {
  let state: WorkerState = "starting";
  const runner: Runner = await run({
    connectionString: databaseUrl,
    maxPoolSize: 4,
    concurrency: 2,
    noHandleSignals: true,
    pollInterval: 2000,
    // Unbatched, graphile-worker records a finished job without awaiting it, so a stop right
    // after a job ends can close the pool first and leave the job locked for four hours. A
    // batcher is flushed before the pool closes.
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    logger: workerLogger(log),
    taskList: { prune_sessions: pruneSessions(database), ...extraTasks },
    crontab: "0 * * * * prune_sessions ?max=1",
  });
  state = "running";
  runner.promise.then(
    () => {
      state = "stopped";
    },
    (error: unknown) => {
      state = "stopped";
      log.error({ err: error }, "worker runner stopped with an error");
    },
  );
  return {
    state: () => state,
    stop: async () => {
      if (state === "stopped") return;
      await runner.stop();
      state = "stopped";
    },
  };
}

function workerLogger(log: Logger): WorkerLogger {
  const child = log.child({ component: "worker" });
  return new WorkerLogger(() => (level, message, meta) => {
    const method = level === "error" ? "error" : level === "warning" ? "warn" : level === "info" ? "info" : "debug";
    child[method](meta ?? {}, message);
  });
}
