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
import type { WorkerState } from "../../src/http/health.ts";
import { hashToken, newToken } from "../../src/auth/tokens.ts";

export interface TestServer {
  readonly url: string;
  readonly database: Database;
  readonly databaseUrl: string;
  readonly env: Env;
  workerState: WorkerState;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  webDist?: string;
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
  const state: { url?: string; workerState: WorkerState } = { workerState: "running" };

  beforeAll(async () => {
    testDatabase = await createTestDatabase(inject("templateUrl"));
    database = openDatabase(testDatabase.url);
    env = loadEnv({ HERALD_LOG_LEVEL: "silent", DATABASE_URL: testDatabase.url, ...options.env });
    const app = createApp({
      services: {
        database,
        env,
        log: pino({ level: "silent" }),
        access: loadAccessTable(),
        version: "test",
        postgresVersion: "test",
      },
      webDist: options.webDist ?? "/nonexistent",
      workerState: () => state.workerState,
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server!.once("listening", resolve));
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
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
