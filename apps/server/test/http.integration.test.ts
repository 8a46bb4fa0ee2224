import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation } from "./support/trpc-http.ts";

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), "herald-dist-"));
fs.writeFileSync(path.join(webDist, "index.html"), "<!doctype html><title>Herald</title>");
fs.mkdirSync(path.join(webDist, "assets"));
fs.writeFileSync(path.join(webDist, "assets", "app-abc123.js"), "console.log(1)");

describe("HTTP surface", () => {
  const server = useTestServer({ webDist });

  it("answers /healthz while the process is up", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("answers /readyz from the database, the migrations and the workers", async () => {
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect((await ready.json()) as unknown).toEqual({
      status: "ready",
      checks: { database: { ok: true }, migrations: { ok: true }, workers: { ok: true, detail: "running" } },
    });

    server.workerState = "stopped";
    const noWorkers = await fetch(`${server.url}/readyz`);
    expect(noWorkers.status).toBe(503);
    expect(((await noWorkers.json()) as any).checks.workers).toEqual({ ok: false, detail: "stopped" });
    server.workerState = "not_in_role";
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    server.workerState = "running";
  });

  it("reports a pending migration as not ready", async () => {
    const [row] = (
      await server.database.pool.query(
        "DELETE FROM herald.schema_migrations WHERE name = (SELECT max(name) FROM herald.schema_migrations) RETURNING name, checksum",
      )
    ).rows;
    try {
      const response = await fetch(`${server.url}/readyz`);
      expect(response.status).toBe(503);
      expect(((await response.json()) as any).checks.migrations).toEqual({ ok: false, detail: `pending: ${row.name}` });
    } finally {
      await server.database.pool.query("INSERT INTO herald.schema_migrations (name, checksum) VALUES ($1, $2)", [row.name, row.checksum]);
    }
  });

  it("refuses a tRPC body over 4 MiB with 413 and writes nothing", async () => {
    const { cookie } = await memberWithSession(server.database, "admin");
    const result = await trpcMutation(server.url, "settings.update", { key: "workspace.name", value: "x".repeat(4 * 1024 * 1024) }, { cookie });
    expect(result.status).toBe(413);
    expect(result.error?.data.code).toBe("PAYLOAD_TOO_LARGE");
    expect(await server.database.prisma.setting.count()).toBe(0);
  });

  it("sends security headers on every response", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-powered-by")).toBeNull();
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("serves the dashboard at / and its client routes, immutable assets, and JSON 404s under /api", async () => {
    for (const route of ["/", "/settings/members", "/invite/abc"]) {
      const response = await fetch(`${server.url}${route}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("<title>Herald</title>");
    }
    const asset = await fetch(`${server.url}/assets/app-abc123.js`);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const api = await fetch(`${server.url}/api/v0/nope`);
    expect(api.status).toBe(404);
    expect((await api.json()) as unknown).toEqual({ error: { code: "not_found", message: "No such API route" } });
  });
});

describe("CSRF", () => {
  const server = useTestServer();

  it("refuses a mutation from another origin, and one that is not JSON, with no side effect", async () => {
    const { cookie } = await memberWithSession(server.database, "admin");
    const foreign = await fetch(`${server.url}/trpc/settings.update`, {
      method: "POST",
      headers: { cookie, origin: "https://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ key: "workspace.name", value: "Pwned" }),
    });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as any).error.code).toBe("bad_origin");

    const form = await fetch(`${server.url}/trpc/settings.update`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "key=workspace.name&value=Pwned",
    });
    expect(form.status).toBe(415);

    const viaGet = await fetch(`${server.url}/trpc/settings.update?input=${encodeURIComponent(JSON.stringify({ key: "workspace.name", value: "Pwned" }))}`, {
      headers: { cookie },
    });
    expect(viaGet.status).toBe(405);
    expect(await server.database.prisma.setting.count()).toBe(0);
  });

  it("accepts the public URL's origin", async () => {
    const { cookie } = await memberWithSession(server.database, "admin");
    const result = await trpcMutation(server.url, "settings.update", { key: "workspace.name", value: "Ok" }, { cookie, origin: "http://localhost:3000" });
    expect(result.ok).toBe(true);
  });
});
