import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/http/app.ts";
import { appRouter } from "../src/trpc/app-router.ts";
import { listRoutes, type ExpressRoute } from "./support/express-routes.ts";
import { useTestServer } from "./support/test-server.ts";

// Security headers on every answer the app gives behind TLS, not only /healthz: every route of
// its Express stack, every tRPC procedure, the dashboard and its assets, 404s, and refusals
// (401, 403, 413, 415).

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), "herald-dist-"));
fs.writeFileSync(path.join(webDist, "index.html"), "<!doctype html><title>Herald</title>");
fs.mkdirSync(path.join(webDist, "assets"));
fs.writeFileSync(path.join(webDist, "assets", "app-abc123.js"), "console.log(1)");

const REQUIRED: Record<string, (value: string | null) => boolean> = {
  "content-security-policy": (v) => !!v && v.includes("frame-ancestors 'none'") && v.includes("script-src 'self'") && v.includes("object-src 'none'"),
  "x-content-type-options": (v) => v === "nosniff",
  "x-frame-options": (v) => v === "DENY",
  "strict-transport-security": (v) => v === "max-age=31536000; includeSubDomains",
  "x-powered-by": (v) => v === null,
};

describe("security headers on every response", () => {
  const server = useTestServer({
    webDist,
    env: {
      HERALD_PUBLIC_URL: "https://herald.example.com",
      HERALD_SES_SNS_TOPIC_ARNS: "arn:aws:sns:us-east-1:123456789012:herald-ses-events",
      HERALD_TWILIO_AUTH_TOKEN: "t".repeat(32),
      HERALD_CLIENT_SECRET: "c".repeat(48),
      HERALD_METRICS_TOKEN: "m".repeat(40),
    },
  });
  let routes: ExpressRoute[] = [];

  beforeAll(() => {
    const app = createApp({ services: server.services, webDist, workerState: () => "running" });
    routes = listRoutes(app).map((r) => ({ method: r.method, path: r.path.replace(/:\w+/g, "x").replace("{*splat}", "settings/members") }));
  });

  it("carries CSP with frame-ancestors, nosniff, DENY and HSTS, and no X-Powered-By", async () => {
    const requests: Array<[string, string, RequestInit?]> = [
      ...routes.map((r): [string, string] => [r.method, r.path]),
      ...Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>).map(([p, d]): [string, string] =>
        d._def.type === "query" ? ["GET", `/trpc/${p}`] : ["POST", `/trpc/${p}`],
      ),
      ["GET", "/"],
      ["GET", "/assets/app-abc123.js"],
      ["GET", "/api/v0/nope"],
      ["HEAD", "/healthz"],
      ["OPTIONS", "/api/v1/events"],
      ["POST", "/api/v1/events", { body: '{"a":', headers: { "content-type": "application/json" } }],
      ["POST", "/trpc/settings.update", { body: "x=1", headers: { "content-type": "text/plain" } }],
      ["POST", "/trpc/settings.update", { body: "{}", headers: { "content-type": "application/json", origin: "https://evil.example" } }],
      ["POST", "/trpc/settings.update", { body: JSON.stringify({ v: "x".repeat(5 * 1024 * 1024) }), headers: { "content-type": "application/json" } }],
    ];
    expect(routes.length).toBeGreaterThan(25);
    const missing: string[] = [];
    for (const [method, url, init] of requests) {
      const response = await fetch(`${server.url}${url}`, { method, redirect: "manual", ...init, ...(method === "POST" && !init ? { body: "{}", headers: { "content-type": "application/json" } } : {}) });
      await response.arrayBuffer();
      for (const [name, ok] of Object.entries(REQUIRED)) {
        if (!ok(response.headers.get(name))) missing.push(`${method} ${url} (${response.status}): ${name} = ${response.headers.get(name)}`);
      }
    }
    expect(missing).toEqual([]);
  }, 60_000);
});
