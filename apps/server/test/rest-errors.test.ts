import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { openDatabase, type Database } from "@herald/db";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { loadAccessTable } from "../src/access/access-table.ts";
import { loadEnv } from "../src/env.ts";
import { createApp } from "../src/http/app.ts";
import { formatBytes, isDatabaseUnavailable } from "../src/http/rest-errors.ts";
import { findJsonProblem, MAX_JSON_DEPTH } from "../src/http/rest/validate.ts";
import { createSettingsCache } from "../src/settings/settings-service.ts";
import type { AppServices } from "../src/trpc/context.ts";
import { freePort } from "@herald/db/testing";
import { rest } from "./support/rest.ts";

describe("isDatabaseUnavailable", () => {
  it("recognises connection-level failures as pg and Prisma's driver adapter report them", () => {
    const unavailable: Array<[string, unknown]> = [
      ["connection refused", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })],
      ["connection reset", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })],
      ["admin shutdown (57P01)", { code: "57P01", message: "terminating connection due to administrator command" }],
      ["crash shutdown (57P02)", { code: "57P02", message: "terminating connection because of crash of another server process" }],
      ["starting up (57P03)", { code: "57P03", message: "the database system is starting up" }],
      ["connection failure (08006)", { code: "08006", message: "connection failure" }],
      ["too many connections (53300)", { code: "53300", message: "sorry, too many clients already" }],
      ["a dropped connection", new Error("Connection terminated unexpectedly")],
      ["a pool timeout", new Error("timeout exceeded when trying to connect")],
      ["a pool shut down", new Error("Cannot use a pool after calling end on the pool")],
      ["Prisma: not reachable", { code: "P2010", message: "Raw query failed", meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable", host: "db", port: 5432 } } } }],
      ["Prisma: connection closed", { code: "P2010", meta: { driverAdapterError: { cause: { kind: "ConnectionClosed" } } } }],
      ["Prisma: postgres 57P01", { code: "P2010", meta: { driverAdapterError: { cause: { kind: "postgres", code: "57P01" } } } }],
    ];
    for (const [what, error] of unavailable) expect(isDatabaseUnavailable(error), what).toBe(true);
  });

  it("leaves a query's own errors, and things that are not errors, alone", () => {
    const other: Array<[string, unknown]> = [
      ["unique violation", { code: "23505", message: "duplicate key value violates unique constraint" }],
      ["syntax error", { code: "42601", message: 'syntax error at or near "SELEC"' }],
      ["out of range", { code: "22008", message: "date/time field value out of range" }],
      ["a bug", new TypeError("Cannot read properties of undefined (reading 'id')")],
      ["Prisma: unique", { code: "P2002", meta: { driverAdapterError: { cause: { kind: "UniqueConstraintViolation" } } } }],
      ["Prisma: postgres 23505", { code: "P2010", meta: { driverAdapterError: { cause: { kind: "postgres", code: "23505" } } } }],
      ["a number code", { code: 57, message: "x" }],
      ["null", null],
      ["undefined", undefined],
      ["a string", "Connection terminated"],
    ];
    for (const [what, error] of other) expect(isDatabaseUnavailable(error), what).toBe(false);
  });
});

describe("formatBytes", () => {
  it("names a route's limit the way the 413 says it", () => {
    expect(formatBytes(1024 * 1024)).toBe("1 MiB");
    expect(formatBytes(5 * 1024 * 1024)).toBe("5 MiB");
    expect(formatBytes(1.5 * 1024 * 1024)).toBe("1.5 MiB");
    expect(formatBytes(32 * 1024)).toBe("32 KiB");
    expect(formatBytes(100)).toBe("100 bytes");
  });
});

describe("findJsonProblem", () => {
  it("names the first control character by its path, escaping a key so it can be logged", () => {
    expect(findJsonProblem({ a: { b: ["ok", "no\u0000"] } })).toEqual({ path: "a.b.1", message: "must not contain NUL or other control characters" });
    expect(findJsonProblem({ "k\u001b": 1 })).toEqual({ path: "k\\u001b", message: "key must not contain NUL or other control characters" });
    expect(findJsonProblem("bare\u0007")).toEqual({ path: "", message: "must not contain NUL or other control characters" });
    // Tabs and line breaks are text.
    expect(findJsonProblem({ body: "line one\r\n\tline two" })).toBeNull();
    expect(findJsonProblem({ n: 1, b: true, z: null, u: "ünïcödé 🎉" })).toBeNull();
  });

  it("stops at MAX_JSON_DEPTH instead of overflowing the stack", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findJsonProblem({ data: deep })).toEqual({ path: `data${".0".repeat(MAX_JSON_DEPTH - 1)}`, message: `must not nest more than ${MAX_JSON_DEPTH} levels deep` });
    let fine: unknown = "leaf";
    for (let i = 0; i < MAX_JSON_DEPTH - 1; i++) fine = [fine];
    expect(findJsonProblem(fine)).toBeNull();
  });
});

describe("the REST API without its database", () => {
  let server: Server | undefined;
  let database: Database | undefined;

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await database?.close().catch(() => undefined);
    server = undefined;
    database = undefined;
  });

  async function serve(url: string, close: boolean): Promise<string> {
    database = openDatabase(url);
    const env = loadEnv({ HERALD_LOG_LEVEL: "silent", DATABASE_URL: url });
    const services: AppServices = {
      database,
      env,
      log: pino({ level: "silent" }),
      access: loadAccessTable(),
      version: "test",
      postgresVersion: "test",
      settings: createSettingsCache(database, env, 0),
      // Never reached: every route authenticates against the database first.
      providers: undefined as unknown as AppServices["providers"],
      nudgePump: () => undefined,
    };
    if (close) await database.close();
    server = createApp({ services, webDist: "/nonexistent", workerState: () => "running" }).listen(0, "127.0.0.1");
    await new Promise((resolve) => server!.once("listening", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  // Well-formed, so the request gets as far as looking the key up.
  const key = `Bearer hk_AAAAAAAA_${"A".repeat(43)}`;

  it("answers 503 unavailable with Retry-After, and no stack trace, while Postgres refuses connections", async () => {
    const url = await serve(`postgres://herald:herald@127.0.0.1:${await freePort()}/herald`, false);
    for (const [method, path, body] of [
      ["POST", "/events", { eventId: "e", type: "t", userId: "u" }],
      ["GET", "/users/u-1/notifications", undefined],
    ] as const) {
      const response = await rest(url, method, path, key, body);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      expect(response.body).toEqual({ error: { code: "unavailable", message: "The database is unavailable; try again shortly" } });
    }
  });

  it("answers 503 once the pool has been shut down", async () => {
    const url = await serve(`postgres://herald:herald@127.0.0.1:${await freePort()}/herald`, true);
    const response = await rest(url, "PUT", "/users/u-1", key, { email: "ada@example.com" });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe("unavailable");
  });
});
