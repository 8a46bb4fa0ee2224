import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { acquireEmbeddedPostgres } from "../src/embedded/embedded-postgres.ts";
import { isProcessAlive } from "../src/embedded/file-lock.ts";
import { findPostgresBinaries } from "../src/embedded/postgres-binaries.ts";

const holder = fileURLToPath(new URL("./fixtures/hold-embedded.ts", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A scratch directory the postgres user can reach (as root it runs the server as that user). */
function scratch(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "herald-embedded-"));
  fs.chmodSync(dir, 0o755);
  cleanups.push(() => stopAnyServer(dir));
  return dir;
}

async function stopAnyServer(dir: string): Promise<void> {
  for (const pidFile of findPidFiles(dir)) {
    const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
    if (pid && isProcessAlive(pid)) process.kill(pid, "SIGINT");
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

function findPidFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith("postmaster.pid"))
    .map((f) => path.join(dir, f));
}

function spawnHolder(dataDir: string, runtimeDir: string): Promise<{ child: ChildProcess; url: string; startedHere: boolean }> {
  // node itself, not a wrapper such as pnpm: SIGKILL must hit the process that holds the lease.
  const child = spawn(process.execPath, [holder, dataDir, runtimeDir], {
    cwd: repoRoot,
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`holder exited with ${code}`)));
    createInterface({ input: child.stdout! }).once("line", (line) => resolve({ child, ...JSON.parse(line) }));
  });
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  // Asked while the server shuts down, the connection can be ended (57P01) between queries: an
  // error event with no listener is an uncaught exception that fails whichever test file runs.
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe("embedded Postgres, one instance per data directory", () => {
  it("lets a second process attach and keeps the server until the last one leaves", async () => {
    const dir = scratch();
    const dataDir = path.join(dir, "pg");
    const first = await spawnHolder(dataDir, dir);
    expect(first.startedHere).toBe(true);

    const second = await acquireEmbeddedPostgres({ dataDir, runtimeDir: dir, database: "herald", log: () => undefined });
    expect(second.startedHere).toBe(false);
    expect(second.url).toBe(first.url);

    const exited = new Promise((r) => first.child.once("exit", r));
    first.child.stdin!.write("release\n");
    await exited;
    expect(await canConnect(second.url)).toBe(true);

    await second.release();
    expect(await canConnect(second.url)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "postmaster.pid"))).toBe(false);
  });

  it("outlives a holder killed with SIGKILL, and the next process to leave stops it", async () => {
    const dir = scratch();
    const dataDir = path.join(dir, "pg");
    const first = await spawnHolder(dataDir, dir);
    const killed = new Promise((r) => first.child.once("exit", r));
    first.child.kill("SIGKILL");
    await killed;

    const next = await acquireEmbeddedPostgres({ dataDir, runtimeDir: dir, database: "herald", log: () => undefined });
    expect(next.startedHere).toBe(false);
    expect(await canConnect(next.url)).toBe(true);
    await next.release();
    expect(await canConnect(next.url)).toBe(false);
  });

  it("starts afresh over a stale postmaster.pid", async () => {
    const dir = scratch();
    const dataDir = path.join(dir, "pg");
    const first = await acquireEmbeddedPostgres({ dataDir, runtimeDir: dir, database: "herald", log: () => undefined });
    await first.release();
    fs.writeFileSync(path.join(dataDir, "postmaster.pid"), `999999\n${dataDir}\n0\n5999\n`);
    const second = await acquireEmbeddedPostgres({ dataDir, runtimeDir: dir, database: "herald", log: () => undefined });
    expect(second.startedHere).toBe(true);
    expect(await canConnect(second.url)).toBe(true);
    await second.release();
  });

  it.runIf(process.getuid?.() === 0)(
    "as root, moves binaries and data the postgres user cannot reach and says so in one line",
    async () => {
      // Like a checkout under `mktemp -d` or /root: a 0700 directory the postgres user cannot enter.
      const closed = fs.mkdtempSync(path.join(os.tmpdir(), "herald-closed-"));
      cleanups.push(() => fs.rmSync(closed, { recursive: true, force: true }));
      const bins = findPostgresBinaries();
      const nativeDir = path.join(closed, "native");
      fs.cpSync(bins.nativeDir, nativeDir, { recursive: true, verbatimSymlinks: true });
      const runtimeDir = scratch();
      const lines: string[] = [];

      const handle = await acquireEmbeddedPostgres({
        dataDir: path.join(closed, ".herald", "pg"),
        runtimeDir,
        database: "herald",
        log: (line) => lines.push(line),
        binaries: { nativeDir, version: bins.version },
      });
      try {
        const moved = lines.filter((l) => l.startsWith("running as root"));
        expect(moved).toHaveLength(1);
        expect(moved[0]).toContain(`binaries and data live under ${runtimeDir}`);
        expect(moved[0]).toContain("HERALD_PG_RUNTIME_DIR");
        expect(handle.dataDir.startsWith(runtimeDir)).toBe(true);
        expect(fs.existsSync(path.join(runtimeDir, `postgres-${bins.version}`, "bin", "postgres"))).toBe(true);
        expect(await canConnect(handle.url)).toBe(true);
      } finally {
        await handle.release();
      }
    },
  );
});
