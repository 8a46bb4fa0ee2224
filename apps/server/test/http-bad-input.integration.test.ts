import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/http/app.ts";
import { appRouter } from "../src/trpc/app-router.ts";
import { clientJwt } from "./support/client-jwt.ts";
import { listRoutes, type ExpressRoute } from "./support/express-routes.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";

// Every route the real app serves, generated from its Express stack (every tRPC mutation
// added), each called over HTTP with valid credentials for its kind and a bad body or URL:
// malformed JSON and forms, bodies over every route's limit, NUL and control characters in each
// path parameter and in the query. Each is a 4xx — never a 5xx, a stack trace or a database
// message — and a body over the limit is never taken.

const CLIENT_SECRET = "c".repeat(48);
const METRICS_TOKEN = "m".repeat(40);
// Over the largest limit of any route (the batch endpoint's 5 MiB).
const OVERSIZE = 6 * 1024 * 1024;

// Routes that take no body at all: whatever is sent is left unread, not parsed.
const BODYLESS = ["POST /api/v1/client/notifications/read-all"];

const PARAMS: Record<string, string> = { userId: "u-1", token: "tok-1", key: "orders", type: "order.paid", id: "1", file: "x.gif" };
const BAD_SEGMENTS = ["a%00b", "%00", "a%1Bb", "%7F", "%E0%A4%A", "..%2F..%2Fetc%2Fpasswd", "x".repeat(5000)];

/** Things that must never reach a caller: a stack, or Postgres's and Node's own words. */
const LEAKS = /\n\s+at |invalid byte sequence|unsupported Unicode escape|syntax error at or near|violates .* constraint|ECONNREFUSED|TypeError|ReferenceError/;

describe("bad input on every HTTP route", () => {
  const server = useTestServer({
    env: {
      HERALD_SES_SNS_TOPIC_ARNS: "arn:aws:sns:us-east-1:123456789012:herald-ses-events",
      HERALD_TWILIO_AUTH_TOKEN: "t".repeat(32),
      HERALD_CLIENT_SECRET: CLIENT_SECRET,
      HERALD_METRICS_TOKEN: METRICS_TOKEN,
      HERALD_SECRET_KEY: "a-test-secret-key-that-is-long-enough-123",
      HERALD_IMPORT_MAX_MIB: "1",
    },
  });
  let routes: ExpressRoute[] = [];
  const auth: Record<string, string> = {};

  beforeAll(async () => {
    const app = createApp({ services: server.services, webDist: "/nonexistent", workerState: () => "running" });
    const mutations = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)
      .filter(([, p]) => p._def.type === "mutation")
      .map(([path]) => ({ method: "POST", path: `/trpc/${path}` }));
    // The SPA's catch-all serves files, not input.
    routes = [...listRoutes(app).filter((r) => !r.path.includes("*")), ...mutations];
    auth.api = await server.apiKey("admin");
    auth.client = `Bearer ${clientJwt({ sub: "u-1", exp: Math.floor(Date.now() / 1000) + 600 }, CLIENT_SECRET)}`;
    auth.session = (await memberWithSession(server.database, "admin")).cookie;
  });

  /** The credentials a route's callers hold, so the bad input is what gets judged. */
  function headersFor(path: string): Record<string, string> {
    if (path.startsWith("/api/v1/client/")) return { authorization: auth.client! };
    if (path.startsWith("/api/v1/")) return { authorization: auth.api! };
    if (path.startsWith("/trpc/") || path.startsWith("/files/")) return { cookie: auth.session! };
    if (path === "/metrics") return { authorization: `Bearer ${METRICS_TOKEN}` };
    return {};
  }

  const fill = (path: string, value?: string) => path.replace(/:(\w+)/g, (_, name: string) => value ?? PARAMS[name] ?? "x");

  async function call(method: string, path: string, body?: string | Buffer, contentType?: string): Promise<{ status: number; text: string }> {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...headersFor(path), ...(contentType ? { "content-type": contentType } : {}) },
      body,
      redirect: "manual",
    });
    return { status: response.status, text: await response.text() };
  }

  function judge(failures: string[], what: string, answer: { status: number; text: string }, allowed: (status: number) => boolean) {
    if (!allowed(answer.status)) failures.push(`${what}: ${answer.status} ${answer.text.slice(0, 160)}`);
    else if (LEAKS.test(answer.text)) failures.push(`${what}: leaks ${answer.text.slice(0, 160)}`);
  }

  const refused = (status: number) => status >= 400 && status < 500;
  const notFailed = (status: number) => status < 500;
  const withBody = (method: string) => ["POST", "PUT", "PATCH"].includes(method);
  const takingBodies = () => routes.filter((r) => withBody(r.method) && !BODYLESS.includes(`${r.method} ${r.path}`));

  it("lists the routes it is about to call", () => {
    const paths = routes.map((r) => `${r.method} ${r.path}`);
    for (const expected of [...BODYLESS, "POST /webhooks/ses", "POST /webhooks/twilio", "POST /u/:token", "POST /files/imports", "POST /api/v1/events", "POST /api/v1/client/notifications/:id/ack", "GET /metrics", "POST /trpc/auth.signIn"]) {
      expect(paths).toContain(expected);
    }
  });

  it("refuses malformed JSON and forms, and JSON holding NUL, with a 4xx", async () => {
    const failures: string[] = [];
    for (const { method, path } of takingBodies()) {
      const url = fill(path);
      judge(failures, `${method} ${url} malformed JSON`, await call(method, url, '{"eventId": "a",', "application/json"), refused);
      judge(failures, `${method} ${url} JSON that is not an object`, await call(method, url, '"\\u0000"', "application/json"), refused);
      judge(failures, `${method} ${url} malformed form`, await call(method, url, "a=%E0%A4%A&b=%00&=&&c", "application/x-www-form-urlencoded"), refused);
      judge(failures, `${method} ${url} a body in no known type`, await call(method, url, "\u0000\u0001\u0002", "application/octet-stream"), refused);
      judge(failures, `${method} ${url} JSON with NUL in its values and keys`, await call(method, url, JSON.stringify({ status: "a\u0000", name: "\u001b", "k\u0000": "v" }), "application/json"), refused);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("refuses a body over the route's limit with a 4xx, never taking it", async () => {
    const failures: string[] = [];
    const big = Buffer.alloc(OVERSIZE, "a");
    const json = Buffer.concat([Buffer.from('{"x":"'), big, Buffer.from('"}')]);
    for (const { method, path } of takingBodies()) {
      const url = fill(path);
      judge(failures, `${method} ${url} ${OVERSIZE} bytes of JSON`, await call(method, url, json, "application/json"), refused);
      judge(failures, `${method} ${url} ${OVERSIZE} bytes of form`, await call(method, url, Buffer.concat([Buffer.from("x="), big]), "application/x-www-form-urlencoded"), refused);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it("answers NUL, control characters and junk in every path parameter and the query with anything but a 5xx", async () => {
    const failures: string[] = [];
    for (const { method, path } of routes) {
      const body = withBody(method) ? "{}" : undefined;
      const type = body ? "application/json" : undefined;
      if (path.includes(":")) {
        for (const segment of BAD_SEGMENTS) {
          const url = fill(path, segment);
          judge(failures, `${method} ${url.slice(0, 120)}`, await call(method, url, body, type), notFailed);
        }
      }
      for (const query of ["?a=%00", "?input=%00", "?to=%1B%00&limit=-1&cursor=%00", "?input=%7B%22a%22%3A%22%00%22%7D"]) {
        judge(failures, `${method} ${fill(path)}${query}`, await call(method, `${fill(path)}${query}`, body, type), notFailed);
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it("refuses empty and 5,000-character credentials of every kind with 401, never a 5xx", async () => {
    const failures: string[] = [];
    const cases: Array<[string, string, Record<string, string>]> = [];
    for (const token of ["", "x".repeat(5000), `hk_${"a".repeat(8)}_${"b".repeat(4990)}`, "%00", "a.b.c"]) {
      cases.push(["GET", "/api/v1/categories", { authorization: `Bearer ${token}` }]);
      cases.push(["GET", "/api/v1/client/notifications", { authorization: `Bearer ${token}` }]);
      cases.push(["GET", "/metrics", { authorization: `Bearer ${token}` }]);
      cases.push(["GET", "/trpc/members.list", { cookie: `herald_session=${token}` }]);
    }
    for (const [method, path, headers] of cases) {
      const response = await fetch(`${server.url}${path}`, { method, headers });
      const answer = { status: response.status, text: await response.text() };
      judge(failures, `${method} ${path} ${JSON.stringify(headers).slice(0, 60)}`, answer, (status) => status === 401);
    }
    expect(failures).toEqual([]);
  });
});
