import { EventEmitter } from "node:events";
import { releaseWorkerPools, surviveServerLoss } from "@herald/db";
import { run, type Runner, type RunnerOptions, type WorkerEvents } from "graphile-worker";
import pg from "pg";
import type { Logger } from "pino";
import { idempotentCallbackRelease } from "./idempotent-release.ts";

/** What a runner is given; its connections and events are the supervisor's. */
export type SupervisedRunnerOptions = Omit<RunnerOptions, "pgPool" | "connectionString" | "events" | "maxPoolSize"> & {
  connectionString: string;
  maxPoolSize: number;
};

export interface SupervisedRunner {
  /** False from the moment its graphile-worker pool exits until a new one has taken over. */
  healthy(): boolean;
  /**
   * The graphile-worker pool ids whose locks are this runner's: the live pool's, and those of
   * pools that exited and whose jobs are not yet released. The heartbeat carries them, so that
   * if this process dies before releasing them, the reaper does.
   */
  poolIds(): string[];
  /** Stops taking jobs, waits for the running ones, then closes its connections. */
  stop(): Promise<void>;
}

export interface SuperviseOptions {
  log: Logger;
  /** Called whenever healthy() or poolIds() changes. */
  onChange?: () => void;
}

/** The wait before restart attempt `attempt` (1-based): 0.5 s, doubling, at most 30 s. */
const restartDelay = (attempt: number) => Math.min(30_000, 500 * 2 ** (attempt - 1));

/**
 * A graphile-worker runner that outlives its database. graphile-worker reconnects its LISTEN
 * client by itself, but a pool that cannot record a finished job (the server restarted under it)
 * declares the queue inconsistent and exits for good: the process stays up and heartbeats, and
 * its jobs stay locked for four hours. Here it is started again, with backoff, on the same
 * connections, and the exited pool's locks are released once the database answers; a job run
 * twice that way finds its rows already sent (their dispatch state says so) and sends nothing.
 *
 * The pool is ours rather than graphile-worker's because graphile-worker ends its own pool
 * without waiting and removes its error listener first: a connection ended by the server in that
 * window raised an uncaught error.
 */
export async function superviseRunner(options: SupervisedRunnerOptions, supervise: SuperviseOptions): Promise<SupervisedRunner> {
  const { connectionString, maxPoolSize, ...runnerOptions } = options;
  const pool = idempotentCallbackRelease(
    surviveServerLoss(new pg.Pool({ connectionString, max: maxPoolSize, application_name: "herald-worker", connectionTimeoutMillis: 10_000 })),
    () => supervise.log.warn("graphile-worker released its LISTEN client twice; the second release was ignored"),
  );
  let current: { runner: Runner; poolId: string } | null = null;
  let stopping = false;
  let supervision: Promise<void> = Promise.resolve();
  let wakeSleep: (() => void) | null = null;
  const exited: string[] = [];

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeSleep = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const start = async () => {
    const events: WorkerEvents = new EventEmitter();
    let poolId = "";
    events.on("pool:create", ({ workerPool }) => (poolId = workerPool.id));
    const runner = await run({ ...runnerOptions, pgPool: pool, events });
    current = { runner, poolId };
    runner.promise.then(
      () => onExit(runner, null),
      (error: unknown) => onExit(runner, error),
    );
  };

  const onExit = (runner: Runner, error: unknown) => {
    if (stopping || current?.runner !== runner) return;
    exited.push(current.poolId);
    current = null;
    supervise.onChange?.();
    supervise.log.error({ err: error, poolId: exited.at(-1) }, "worker runner exited; starting it again");
    supervision = restartAndRelease();
  };

  const restartAndRelease = async () => {
    for (let attempt = 1; !stopping && !current; attempt++) {
      await sleep(restartDelay(attempt));
      if (stopping) return;
      try {
        await start();
        supervise.onChange?.();
      } catch (error) {
        supervise.log.warn({ err: error, attempt }, "worker runner could not start; trying again");
      }
    }
    // The new pool is running, so the database answers again: the exited pools' jobs can run.
    for (let attempt = 1; !stopping && exited.length > 0; attempt++) {
      const ids = [...exited];
      try {
        await releaseWorkerPools(pool, ids);
        exited.splice(0, ids.length);
        supervise.onChange?.();
        supervise.log.warn({ poolIds: ids }, "released the jobs of an exited worker runner");
      } catch (error) {
        supervise.log.warn({ err: error, poolIds: ids }, "could not release an exited runner's jobs yet; the heartbeat keeps them listed");
        await sleep(restartDelay(attempt));
      }
    }
  };

  await start();
  return {
    healthy: () => current !== null,
    poolIds: () => [...(current ? [current.poolId] : []), ...exited],
    stop: async () => {
      stopping = true;
      wakeSleep?.();
      // A start in progress finishes first, so the runner it makes is the one stopped here.
      await supervision;
      const running = current?.runner;
      current = null;
      try {
        await running?.stop();
      } finally {
        await pool.end();
      }
    },
  };
}
