import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import { afterAll, beforeAll, inject } from "vitest";
import { freePort } from "@herald/db/testing";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const ARTIFACTS = path.join(REPO_ROOT, "test-artifacts", "browser");

export interface HeraldServer {
  readonly url: string;
  readonly databaseUrl: string;
}

/** The real server process (main.ts) with the built dashboard, on a database of its own; `env` adds variables. */
export function useHeraldServer(options: { env?: Record<string, string> } = {}): HeraldServer {
  let child: ChildProcess | undefined;
  let database: TestDatabase | undefined;
  let url = "";
  let log = "";

  beforeAll(async () => {
    if (!fs.existsSync(path.join(REPO_ROOT, "apps/web/dist/index.html"))) {
      throw new Error("The dashboard is not built: run `pnpm build` first (`pnpm test:browser` does).");
    }
    database = await createTestDatabase(inject("templateUrl"));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ["apps/server/src/main.ts"], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: database.url,
        PORT: String(port),
        HOST: "127.0.0.1",
        HERALD_PUBLIC_URL: url,
        HERALD_LOG_LEVEL: "warn",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d) => (log += d));
    child.stderr!.on("data", (d) => (log += d));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
      if (ready) break;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`Herald did not become ready:\n${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    await database?.drop();
  });

  return {
    get url() {
      return url;
    },
    get databaseUrl() {
      return database!.url;
    },
  };
}
