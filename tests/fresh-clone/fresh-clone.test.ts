import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "@herald/db/testing";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The README's first command from a fresh `git clone` into `mktemp -d` — a 0700 directory, the
 * case where (as root) the postgres user cannot reach the checkout. Proves that nothing the
 * commands need is missing from git or the lockfile, and that the embedded Postgres moves out.
 */
describe("pnpm install && pnpm start from a fresh mktemp -d clone", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "herald-clone-"));
  const runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), "herald-runtime-"));
  fs.chmodSync(runtimeDir, 0o755);
  const clone = path.join(scratch, "herald");
  afterAll(() => {
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.rmSync(runtimeDir, { recursive: true, force: true });
  });

  it("installs, builds, migrates the embedded Postgres, serves the dashboard and stops cleanly", async () => {
    expect(fs.statSync(scratch).mode & 0o777).toBe(0o700);
    execFileSync("git", ["clone", "-q", REPO_ROOT, clone]);
    execFileSync("pnpm", ["install", "--frozen-lockfile", "--prefer-offline"], { cwd: clone, stdio: "pipe", env: cleanEnv() });

    const port = await freePort();
    const child = spawn("pnpm", ["start"], {
      cwd: clone,
      env: { ...cleanEnv(), PORT: String(port), HERALD_PG_RUNTIME_DIR: runtimeDir },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));

    const deadline = Date.now() + 120_000;
    for (;;) {
      if (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false)) break;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`pnpm start did not become ready:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const page = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(page).toContain('<div id="root"></div>');
    const status = (await (await fetch(`http://127.0.0.1:${port}/trpc/setup.status`)).json()) as any;
    expect(status.result.data).toEqual({ needsFirstAdmin: true, mode: "development" });
    if (process.getuid?.() === 0) {
      expect(output.match(/running as root and the postgres user cannot reach/g)).toHaveLength(1);
      expect(fs.readdirSync(runtimeDir).some((f) => f.startsWith("postgres-"))).toBe(true);
    }

    // Ctrl-C in a terminal: SIGINT to the whole foreground process group.
    process.kill(-child.pid!, "SIGINT");
    await exited;
    expect(output).toContain("embedded Postgres stopped");
    expect(output).toContain("Herald stopped");
  });
});

/** The clone must not see this checkout's test-run variables (a DATABASE_URL, for instance). */
function cleanEnv(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _d, HERALD_TEST_REPORT_DIR: _r, HERALD_TEST_REPORT_NAME: _n, VITEST: _v, ...rest } = process.env;
  return Object.fromEntries(Object.entries(rest).filter(([k]) => !k.startsWith("VITEST") && !k.startsWith("npm_")));
}
