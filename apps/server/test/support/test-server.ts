import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createSession, createMember, openDatabase, type Database, type MemberRecord } from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import type { Role } from "@herald/core";
import pino from "pino";
import { afterAll, beforeAll, inject } from "vitest";
import { loadAccessTable } from "../../src/access/access-table.ts";
import { loadEnv, type Env } from "../../src/env.ts";
import { createApp } from "../../src/http/app.ts";
import type { AppServices } from "../../src/trpc/context.ts";
import type { WorkerState } from "../../src/http/health.ts";
import { hashToken, newToken } from "../../src/auth/tokens.ts";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { configureBuckets, configuredProviders } from "../../src/providers/configured-providers.ts";
import type { ProviderRegistry } from "../../src/providers/provider-registry.ts";
import { createSettingsCache, type SettingsCache } from "../../src/settings/settings-service.ts";
import { startWorkers, type Workers } from "../../src/workers/worker-runner.ts";

export interface TestServer {
  readonly url: string;
  readonly database: Database;
  readonly databaseUrl: string;
  readonly env: Env;
  readonly settings: SettingsCache;
  readonly workers: Workers | null;
  /** The services the app was built with, for tests that mount a router on an app of their own. */
  readonly services: AppServices;
  workerState: WorkerState;
  /** A fresh API key of the scope, as a ready Authorization header value. */
  apiKey(scope: "events" | "read" | "admin", ratePerMinute?: number): Promise<string>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  webDist?: string;
  /** Runs the real workers (runners, pump, heartbeat) in this process, as HERALD_ROLE=all does. */
  withWorkers?: boolean;
  /** Replaces the configured providers (tests inject their own). */
  providers?: (defaults: ProviderRegistry) => ProviderRegistry;
}

/**
 * The real Express app over HTTP on a fresh database of this file's own, with the same
 * wiring as main.ts except the worker runner (its state is settable for /readyz tests).
 */
export function useTestServer(options: TestServerOptions = {}): TestServer {
  let server: Server | undefined;
  let database: Database | undefined;
  let testDatabase: TestDatabase | undefined;
  let env: Env | undefined;
  let settings: SettingsCache | undefined;
  let workers: Workers | null = null;
  let services: AppServices | undefined;
  const state: { url?: string; workerState: WorkerState } = { workerState: "running" };

  beforeAll(async () => {
    testDatabase = await createTestDatabase(inject("templateUrl"));
    database = openDatabase(testDatabase.url);
    env = loadEnv({ HERALD_LOG_LEVEL: "silent", DATABASE_URL: testDatabase.url, ...options.env });
    settings = createSettingsCache(database, env, 0);
    await settings.get();
    const log = pino({ level: process.env.HERALD_TEST_LOG ?? "silent" });
    const defaults = await configuredProviders(env, database.pool, settings, log);
    await configureBuckets(defaults, database.pool, settings);
    const providers = options.providers ? options.providers(defaults) : defaults;
    if (options.withWorkers) {
      workers = await startWorkers({ databaseUrl: testDatabase.url, database, env, settings, providers, log });
    }
    services = {
      database,
      env,
      log,
      access: loadAccessTable(),
      version: "test",
      postgresVersion: "test",
      settings,
      providers,
      nudgePump: () => workers?.nudgePump(),
    };
    const app = createApp({
      services,
      webDist: options.webDist ?? "/nonexistent",
      workerState: () => state.workerState,
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server!.once("listening", resolve));
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await workers?.stop();
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await database?.close();
    await testDatabase?.drop();
  });

  return {
    get url() {
      return state.url!;
    },
    get database() {
      return database!;
    },
    get databaseUrl() {
      return testDatabase!.url;
    },
    get env() {
      return env!;
    },
    get settings() {
      return settings!;
    },
    get workers() {
      return workers;
    },
    get services() {
      return services!;
    },
    async apiKey(scope, ratePerMinute) {
      const { key } = await createApiKey(database!.pool, { name: `test ${scope}`, scope, ratePerMinute: ratePerMinute ?? null, createdBy: null });
      return `Bearer ${key}`;
    },
    get workerState() {
      return state.workerState;
    },
    set workerState(value) {
      state.workerState = value;
    },
  };
}

let counter = 0;

/** A member of `role` with a live session, made directly in the database (no argon2 cost). */
export async function memberWithSession(database: Database, role: Role): Promise<{ member: MemberRecord; cookie: string }> {
  counter += 1;
  const member = await createMember(database.prisma, {
    email: `${role}-${counter}-${Date.now()}@example.com`,
    name: `${role} ${counter}`,
    role,
    passwordHash: "not-a-password",
  });
  return { member, cookie: await sessionCookieFor(database, member.id) };
}

export async function sessionCookieFor(database: Database, memberId: string, expiresAt = new Date(Date.now() + 3_600_000)): Promise<string> {
  const token = newToken();
  await createSession(database.prisma, { id: hashToken(token), memberId, expiresAt, userAgent: null, ip: null });
  return `herald_session=${token}`;
}
