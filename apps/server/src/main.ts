import type { Server } from "node:http";
import { fileURLToPath } from "node:url";
import express from "express";
import { migrate, openDatabase, redactUrl, resolveDatabaseTarget, type DatabaseTarget } from "@herald/db";
import { loadAccessTable } from "./access/access-table.ts";
import { EnvError, loadEnv, type Env } from "./env.ts";
import { createApp } from "./http/app.ts";
import { metricsRoutes } from "./http/metrics.ts";
import { createLogger } from "./logger.ts";
import { configureBuckets, configuredProviders } from "./providers/configured-providers.ts";
import { createSettingsCache, seedPinnedSettings } from "./settings/settings-service.ts";
import { VERSION } from "./version.ts";
import { startWorkers, type Workers } from "./workers/worker-runner.ts";

const DEFAULT_WEB_DIST = fileURLToPath(new URL("../../web/dist", import.meta.url));

/** Wires the process: environment → Postgres → migrations → HTTP and workers → shutdown. */
async function main(): Promise<void> {
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) fatal(error.message);
    throw error;
  }
  const log = createLogger(env);
  log.info({ mode: env.HERALD_MODE, role: env.HERALD_ROLE, version: VERSION }, "starting Herald");

  let target: DatabaseTarget;
  try {
    target = await resolveDatabaseTarget({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.HERALD_DATA_DIR,
      runtimeDir: env.HERALD_PG_RUNTIME_DIR,
      log: (message) => log.info(message),
    });
  } catch (error) {
    return fatal((error as Error).message);
  }
  const stopping: Array<() => Promise<void>> = [() => target.release()];
  const shutdown = installShutdown(env, log, stopping);

  try {
    const { applied } = await migrate(target.url);
    if (applied.length > 0) log.info({ applied }, `applied ${applied.length} migration(s)`);
  } catch (error) {
    await shutdown.run(1, (error as Error).message);
    return;
  }

  const database = openDatabase(target.url);
  stopping.unshift(() => database.close());
  const { rows } = await database.pool.query<{ server_version: string }>("SHOW server_version");
  await seedPinnedSettings(database, env);
  const settings = createSettingsCache(database, env);
  await settings.get();
  const providers = await configuredProviders(env, database.pool, settings, log);
  await configureBuckets(providers, database.pool, settings);
  // Settings → Providers changes reach every process within a few seconds.
  const providerRefresh = setInterval(() => {
    providers
      .refresh()
      .then(() => configureBuckets(providers, database.pool, settings))
      .catch((error: unknown) => log.warn({ err: error }, "provider refresh failed"));
  }, 5000);
  stopping.unshift(async () => clearInterval(providerRefresh));
  const unconfigured = providers.unconfiguredChannels();
  if (unconfigured.length > 0) {
    log.warn({ channels: unconfigured }, `no provider configured for ${unconfigured.join(", ")}: their notifications are deferred`);
  }

  let workers: Workers | null = null;
  if (env.HERALD_ROLE !== "api") {
    workers = await startWorkers({ databaseUrl: target.url, database, env, settings, providers, log });
    const started = workers;
    stopping.unshift(() => started.stop());
  }

  // A worker-only process serves /metrics and nothing else (when the token is set): its sends are
  // counted in its own memory, so Prometheus scrapes every process.
  const app =
    env.HERALD_ROLE !== "worker"
      ? createApp({
          services: {
            database,
            env,
            log,
            access: loadAccessTable(),
            version: VERSION,
            postgresVersion: rows[0]?.server_version ?? "unknown",
            settings,
            providers,
            nudgePump: () => workers?.nudgePump(),
          },
          webDist: env.HERALD_WEB_DIST ?? DEFAULT_WEB_DIST,
          workerState: () => workers?.state() ?? "not_in_role",
        })
      : env.HERALD_METRICS_TOKEN
        ? express().use(metricsRoutes({ sql: database.pool, token: env.HERALD_METRICS_TOKEN, log }))
        : null;
  if (app) {
    let server: Server;
    try {
      server = await listen(app, env.PORT, env.HOST);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const message =
        code === "EADDRINUSE" ? `Port ${env.PORT} is already in use: stop what holds it or set PORT to another port` : (error as Error).message;
      await shutdown.run(1, message);
      return;
    }
    stopping.unshift(() => closeServer(server));
    log.info(
      { url: env.publicUrl.toString(), database: target.embedded ? "embedded" : redactUrl(target.url) },
      `Herald is listening on http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${env.PORT}`,
    );
  }
}

function listen(app: import("express").Express, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    // A CSV upload streams a file of up to HERALD_IMPORT_MAX_MIB (2 GiB by default) in one
    // request; Node's default of five minutes for a whole request cut a million-row upload off
    // with a 408 on a busy machine. Every other route keeps five minutes (bodyDeadline), and
    // headers still must arrive within headersTimeout's minute.
    server.requestTimeout = 60 * 60_000;
    server.once("listening", () => resolve(server));
    server.once("error", reject);
  });
}

/** Stops accepting connections, lets in-flight requests finish, closes idle keep-alives. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/**
 * SIGINT/SIGTERM: stop HTTP, let in-flight jobs finish, close the pool, release Postgres.
 * A second signal, or the shutdown timeout, exits at once.
 */
function installShutdown(env: Env, log: import("pino").Logger, steps: Array<() => Promise<void>>) {
  let startedAt = 0;
  const run = async (code: number, reason?: string) => {
    if (startedAt) {
      // Ctrl-C reaches every process of the foreground group, so a wrapper may relay the same
      // SIGINT within milliseconds: only a later, deliberate second signal forces the exit.
      if (Date.now() - startedAt < 1000) return;
      log.warn("second signal: exiting now");
      process.exit(1);
    }
    startedAt = Date.now();
    if (reason) {
      log.fatal(reason);
      process.stderr.write(`herald: ${reason}\n`);
    }
    const timer = setTimeout(() => {
      log.error(`shutdown took longer than ${env.HERALD_SHUTDOWN_TIMEOUT_MS} ms: exiting`);
      process.exit(1);
    }, env.HERALD_SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        log.error({ err: error }, "shutdown step failed");
      }
    }
    log.info("Herald stopped");
    process.exit(code);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      log.info({ signal }, "shutting down");
      void run(0);
    });
  }
  return { run };
}

function fatal(message: string): never {
  process.stderr.write(`herald: ${message}\n`);
  process.exit(1);
}

await main();
