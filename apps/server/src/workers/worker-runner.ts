import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { CHANNELS, DEFAULT_RETRY_POLICY, type Channel } from "@herald/core";
import { beat, consentHolds, openConsentPool, pumpOnce, reapDeadWorkers, removeHeartbeat, type Database } from "@herald/db";
import { Logger as WorkerLogger, type TaskList } from "graphile-worker";
import type { Logger } from "pino";
import { BreakerBook } from "../dispatch/breaker-book.ts";
import { createTemplateStore } from "../dispatch/template-store.ts";
import { createEmailLinks } from "../links/email-links.ts";
import { linkTokensFor } from "../links/link-tokens.ts";
import type { DispatchPolicy } from "../dispatch/dispatcher.ts";
import type { Env } from "../env.ts";
import type { WorkerState } from "../http/health.ts";
import type { ProviderSpec } from "../providers/provider-kinds.ts";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import type { SettingsCache } from "../settings/settings-service.ts";
import { sesStatusEvents } from "../providers/ses/ses-status-events.ts";
import { twilioStatusEvents } from "../providers/twilio/twilio-status-events.ts";
import { applyStatusEventsTask } from "../tasks/apply-status-events.ts";
import { applyWebhookEventsTask } from "../tasks/apply-webhook-events.ts";
import { reconcileTwilioTask, twilioStatusFetcher } from "../tasks/reconcile-twilio.ts";
import { pruneSessions } from "../tasks/prune-sessions.ts";
import { pruneExpiredTask } from "../tasks/prune-expired.ts";
import { RETENTION_CRONTAB } from "../lifecycle/retention-policy.ts";
import { importCsvTask } from "../tasks/import-csv.ts";
import { reapWorkersTask, STUCK_IN_FLIGHT_MS } from "../tasks/reap-workers.ts";
import { reapGate } from "./reap-gate.ts";
import { rollUpAnalyticsTask } from "../tasks/roll-up-analytics.ts";
import { deliverAlertTask } from "../tasks/deliver-alert.ts";
import { evaluateAlertsTask } from "../tasks/evaluate-alerts.ts";
import { sendBatchTask } from "../tasks/send-batch.ts";
import { startBroadcastTask } from "../tasks/start-broadcast.ts";
import { WATCH_BROADCASTS_CRONTAB, watchBroadcastsTask } from "../tasks/watch-broadcasts.ts";
import { segmentAudience } from "../broadcasts/segment-audience.ts";
import { databaseClock } from "./database-clock.ts";
import { superviseRunner, type SupervisedRunner, type SupervisedRunnerOptions } from "./supervised-runner.ts";

export interface Workers {
  state(): WorkerState;
  /** Wakes the pump now (ingest in this process just committed new rows). */
  nudgePump(): void;
  /** Stops the pump, stops taking jobs, and waits for the running ones to finish. */
  stop(): Promise<void>;
}

export interface WorkerOptions {
  databaseUrl: string;
  database: Database;
  env: Env;
  settings: SettingsCache;
  providers: ProviderRegistry & { specs?: () => ProviderSpec[] };
  log: Logger;
  /** Tasks beyond the built-in ones (tests add their own). */
  extraTasks?: TaskList;
}

const HEARTBEAT_MS = 10_000;

/**
 * How often this process says it is alive: every 10 s, or four times per silence when the
 * silence is shorter. A process that beats less often than another declares it dead after is
 * reaped alive: its running jobs are unlocked and run again elsewhere, and the rows it has in
 * flight are sent twice (a 2 s silence with 10 s beats did exactly that in the reliability suite).
 */
export function heartbeatIntervalMs(silenceMs: number): number {
  return Math.min(HEARTBEAT_MS, Math.floor(silenceMs / 4));
}

/**
 * This process's share of the work: one graphile-worker runner per channel (each with its own
 * concurrency, so a throttled SMS provider never holds back push), one for housekeeping, the
 * outbox pump, and a heartbeat the reaper reads.
 */
export async function startWorkers(options: WorkerOptions): Promise<Workers> {
  const { database, env, settings, providers, log } = options;
  const sql = database.pool;
  await settings.get();
  const setting = <T>(key: string) => settings.current().get(key) as T;

  const breakers = new BreakerBook(sql, () => ({
    failureThreshold: setting<number>("providers.breakerFailureThreshold"),
    coolDownMs: setting<number>("providers.breakerCoolDownSeconds") * 1000,
  }));
  const policy = async (): Promise<DispatchPolicy> => {
    const s = await settings.get();
    return {
      retry: { ...DEFAULT_RETRY_POLICY, floorMs: env.HERALD_RETRY_FLOOR_MS, baseMs: env.HERALD_RETRY_FLOOR_MS, maxAttempts: s.get("dispatch.maxAttempts") as number, maxAgeMs: (s.get("dispatch.maxAgeMinutes") as number) * 60_000 },
      outageMaxAgeMs: (s.get("dispatch.outageMaxAgeHours") as number) * 3_600_000,
      breakerCoolDownMs: (s.get("providers.breakerCoolDownSeconds") as number) * 1000,
      defaultTimezone: s.get("workspace.defaultTimezone") as string,
    };
  };
  const concurrency: Record<Channel, number> = {
    push: env.HERALD_PUSH_CONCURRENCY,
    email: env.HERALD_EMAIL_CONCURRENCY,
    sms: env.HERALD_SMS_CONCURRENCY,
  };
  // Instants this process writes are the database's, not its own clock's.
  const clock = await databaseClock(sql);
  // One connection per batch that can be sending at once.
  const consentPool = openConsentPool(options.databaseUrl, concurrency.push + concurrency.email + concurrency.sms);
  const dispatcher = {
    sql,
    holdConsent: consentHolds(consentPool),
    providers,
    breakers,
    policy,
    log: log.child({ component: "dispatch" }),
    emailLinks: createEmailLinks({ sql, tokens: linkTokensFor(env, log), publicUrl: env.publicUrl }),
    templates: createTemplateStore(sql),
    now: clock.now,
  };

  let state: WorkerState = "running";
  const runners: SupervisedRunner[] = [];
  const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  // The beat in flight, so that a stop deletes the row after it: a beat landing after the delete
  // brought a stopped worker's row back.
  let beating: Promise<unknown> = Promise.resolve();
  const gate = reapGate(env.HERALD_WORKER_SILENCE_MS);
  const heartbeat = async () => {
    const beaten = beat(sql, { id: workerId, poolIds: runners.flatMap((r) => r.poolIds()), hostname: hostname(), pid: process.pid }, env.HERALD_WORKER_SILENCE_MS);
    beating = beaten;
    const { silentWorkers } = await beaten.catch((error: unknown) => {
      gate.beatFailed();
      throw error;
    });
    gate.beatSucceeded();
    await clock.sync();
    // A dead worker's jobs are freed a beat after its silence, not at the next minute's reaper.
    if (silentWorkers && gate.open()) {
      const reaped = await reapDeadWorkers(sql, env.HERALD_WORKER_SILENCE_MS, STUCK_IN_FLIGHT_MS);
      if (reaped.workers.length > 0) log.warn({ workers: reaped.workers }, "released the jobs of silent workers");
    }
  };
  const supervise = {
    log,
    // The heartbeat names the new pools at once: were this process to die now, the reaper
    // releases exactly the locks it holds.
    onChange: () => {
      if (state === "stopped") return;
      state = runners.every((r) => r.healthy()) ? "running" : "restarting";
      heartbeat().catch((e) => log.warn({ err: e }, "heartbeat failed"));
    },
  };
  const common = {
    connectionString: options.databaseUrl,
    noHandleSignals: true,
    pollInterval: 2000,
    logger: workerLogger(log),
    // Unbatched, graphile-worker records a finished job without awaiting it, so a stop right
    // after a job ends can close the pool first and leave the job locked for four hours. A
    // batcher is flushed before the pool closes. (0.18's batcher is patched, patches/: after two
    // failed writes its flush never ended, and a pool shut down by an outage never exited.)
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  };
  // Send jobs have one shape whoever makes them: the pump, or a broadcast's fan-out.
  const sendJobs = { batchSize: env.HERALD_BATCH_SIZE, lookaheadMs: 5000 };
  const start = async (runnerOptions: Omit<SupervisedRunnerOptions, keyof typeof common>) => {
    runners.push(await superviseRunner({ ...common, ...runnerOptions }, supervise));
  };
  for (const channel of CHANNELS) {
    await start({
      concurrency: concurrency[channel],
      maxPoolSize: concurrency[channel] + 2,
      taskList: { [`send_${channel}`]: sendBatchTask(channel, dispatcher) },
    });
  }
  await start({
    concurrency: 2,
    maxPoolSize: 4,
    taskList: {
      prune_sessions: pruneSessions(database),
      apply_status_events: applyStatusEventsTask(sql),
      apply_webhook_events: applyWebhookEventsTask(sql, { ses: sesStatusEvents, twilio: twilioStatusEvents }),
      // Twilio never retries a status callback: messages left in "sent" are looked up.
      reconcile_twilio: reconcileTwilioTask(sql, async (sid) => {
        const spec = providers.specs?.().find((s) => s.kind === "twilio");
        if (!spec) throw new Error("no Twilio account is configured");
        return twilioStatusFetcher({
          accountSid: spec.secrets.accountSid ?? "",
          authToken: spec.secrets.authToken ?? "",
          ...(spec.settings.baseUrl ? { baseUrl: String(spec.settings.baseUrl) } : {}),
        })(sid);
      }),
      reap_workers: reapWorkersTask(sql, env.HERALD_WORKER_SILENCE_MS, gate),
      roll_up_analytics: rollUpAnalyticsTask(sql, async () => setting<string>("workspace.defaultTimezone")),
      evaluate_alerts: evaluateAlertsTask(sql, settings),
      deliver_alert: deliverAlertTask(sql, settings, env),
      prune_expired: pruneExpiredTask(sql, () => setting<number>("retention.days")),
      ...options.extraTasks,
    },
    crontab: [
      "0 * * * * prune_sessions ?max=1",
      "* * * * * reap_workers ?max=1",
      "*/15 * * * * reconcile_twilio ?max=1",
      "* * * * * roll_up_analytics ?max=1",
      "* * * * * evaluate_alerts ?max=1",
      RETENTION_CRONTAB,
    ].join("\n"),
  });
  // CSV imports on a runner of their own: a ten-second slice of a big import never delays the
  // status events and reaping above.
  await start({ concurrency: 1, maxPoolSize: 2, taskList: { import_csv: importCsvTask(sql) } });

  // Broadcasts on their own runner: a long fan-out never holds up webhooks or housekeeping.
  await start({
    concurrency: 1,
    maxPoolSize: 3,
    taskList: {
      start_broadcast: startBroadcastTask({
        pool: sql,
        audience: segmentAudience,
        defaultTimezone: async () => (await settings.get()).get("workspace.defaultTimezone") as string,
        jobs: sendJobs,
        now: clock.now,
      }),
      watch_broadcasts: watchBroadcastsTask(sql, async () => {
        const s = await settings.get();
        return { maxBouncePercent: s.get("broadcasts.maxBouncePercent") as number, maxComplaintPercent: s.get("broadcasts.maxComplaintPercent") as number };
      }, clock.now),
    },
    crontab: WATCH_BROADCASTS_CRONTAB,
  });

  // The first beat names every runner's pool, and says the process is up (the reliability suite
  // waits for it). Runners take jobs as they start, so a process killed before this beat leaves
  // locks no heartbeat names: the reaper frees those after two silences.
  await heartbeat();
  // A process that starts after a crash frees the dead one's jobs a silence later, at a beat (the
  // gate): one started as the database came back cannot tell a dead worker from a live one yet.
  const heartbeatTimer = setInterval(
    () => heartbeat().catch((e) => log.warn({ err: e }, "heartbeat failed")),
    heartbeatIntervalMs(env.HERALD_WORKER_SILENCE_MS),
  );

  const pump = startPumpLoop({
    run: () => pumpOnce(sql, { ...sendJobs, maxQueuedBatches: 2 * Math.max(...Object.values(concurrency)) }),
    intervalMs: env.HERALD_PUMP_INTERVAL_MS,
    log,
  });

  return {
    state: () => state,
    nudgePump: () => pump.nudge(),
    stop: async () => {
      if (state !== "stopped") {
        state = "stopped";
        clearInterval(heartbeatTimer);
        await pump.stop();
        await Promise.all(runners.map((r) => r.stop()));
        await beating.catch(() => undefined);
        await removeHeartbeat(sql, workerId).catch(() => undefined);
      }
      if (!consentPool.ended) await consentPool.end();
    },
  };
}

/** The pump runs every interval, or at once when nudged; never two passes at a time in one process. */
function startPumpLoop(options: { run: () => Promise<unknown>; intervalMs: number; log: Logger }) {
  let stopped = false;
  let wake: (() => void) | null = null;
  let nudged = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        await options.run();
      } catch (error) {
        options.log.warn({ err: error }, "pump pass failed; trying again");
      }
      if (stopped) break;
      if (!nudged) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.intervalMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      nudged = false;
      wake = null;
    }
  })();
  return {
    nudge: () => {
      nudged = true;
      wake?.();
    },
    stop: async () => {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}

function workerLogger(log: Logger): WorkerLogger {
  const child = log.child({ component: "worker" });
  return new WorkerLogger(() => (level, message, meta) => {
    const method = level === "error" ? "error" : level === "warning" ? "warn" : level === "info" ? "debug" : "trace";
    child[method](meta ?? {}, message);
  });
}
