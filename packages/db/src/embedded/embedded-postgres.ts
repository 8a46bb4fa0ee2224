import { execFile, type ExecFileOptions } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { binary, findPostgresBinaries, type PostgresBinaries } from "./postgres-binaries.ts";
import { isProcessAlive, withFileLock } from "./file-lock.ts";
import { canTraverse, ensurePostgresUser, isRoot, type SystemUser } from "./unprivileged-user.ts";
import { freePort } from "./free-port.ts";

const run = promisify(execFile);

export interface EmbeddedPostgresOptions {
  /** Where the cluster's files live (HERALD_DATA_DIR). */
  dataDir: string;
  /** As root, where binaries and data go when the postgres user cannot reach `dataDir`. */
  runtimeDir: string;
  /** Database created on first start and named in the returned URL. */
  database: string;
  log: (message: string) => void;
  /** Overrides where the binaries are found (tests); defaults to the installed platform package. */
  binaries?: PostgresBinaries;
}

/** A running embedded cluster this process holds a lease on. */
export interface EmbeddedPostgres {
  url: string;
  port: number;
  dataDir: string;
  /** Whether this process started the server (rather than attaching to a live one). */
  startedHere: boolean;
  /** Drops this process's lease; the last Herald process out stops the server. */
  release(): Promise<void>;
  /**
   * Stops the server (pg_ctl stop -m fast: every connection is cut) and keeps the lease; the
   * reliability suite's outages. startServer() brings it back on the same port.
   */
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
}

interface Layout {
  bins: PostgresBinaries;
  dataDir: string;
  runDir: string;
  runAs: SystemUser | null;
}

/**
 * One embedded instance per data directory, shared by every Herald process (server, CLI, tests):
 * whoever finds a live postmaster attaches to it, and the last process to leave stops it. The
 * server is started daemonised through pg_ctl, so it outlives the process that started it for as
 * long as anyone else still holds a lease.
 */
export async function acquireEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const layout = planLayout(options);
  fs.mkdirSync(path.join(layout.runDir, "leases"), { recursive: true });
  const lockDir = path.join(layout.runDir, "lock");

  const { port, startedHere } = await withFileLock(lockDir, async () => {
    const live = readLivePostmaster(layout.dataDir);
    let port: number;
    let startedHere = false;
    if (live) {
      port = live.port;
    } else {
      if (!fs.existsSync(path.join(layout.dataDir, "PG_VERSION"))) await initCluster(layout, options.log);
      port = await freePort();
      await startCluster(layout, port);
      startedHere = true;
      options.log(`embedded Postgres ${layout.bins.version} started on 127.0.0.1:${port} (data in ${layout.dataDir})`);
    }
    await ensureDatabase(port, options.database);
    fs.writeFileSync(path.join(layout.runDir, "leases", String(process.pid)), "");
    return { port, startedHere };
  });

  let released = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/${options.database}`,
    port,
    dataDir: layout.dataDir,
    startedHere,
    release: async () => {
      if (released) return;
      released = true;
      await withFileLock(lockDir, async () => {
        fs.rmSync(path.join(layout.runDir, "leases", String(process.pid)), { force: true });
        if (liveLeases(layout.runDir).length > 0) {
          options.log("embedded Postgres left running: other Herald processes still use it");
          return;
        }
        if (readLivePostmaster(layout.dataDir)) {
          await stopCluster(layout);
          options.log("embedded Postgres stopped");
        }
      });
    },
    stopServer: () => withFileLock(lockDir, () => stopCluster(layout)),
    startServer: () => withFileLock(lockDir, () => startCluster(layout, port)),
  };
}

function planLayout(options: EmbeddedPostgresOptions): Layout {
  const bins = options.binaries ?? findPostgresBinaries();
  const requested = path.resolve(options.dataDir);
  if (!isRoot()) {
    return { bins, dataDir: requested, runDir: `${requested}.run`, runAs: null };
  }
  const user = ensurePostgresUser();
  let { nativeDir } = bins;
  let dataDir = requested;
  const moved: string[] = [];
  if (!canTraverse(user, path.join(nativeDir, "bin"))) {
    nativeDir = path.join(options.runtimeDir, `postgres-${bins.version}`);
    if (!fs.existsSync(path.join(nativeDir, "bin", "postgres"))) {
      fs.mkdirSync(options.runtimeDir, { recursive: true, mode: 0o755 });
      fs.chmodSync(options.runtimeDir, 0o755);
      const staging = `${nativeDir}.${process.pid}`;
      fs.cpSync(bins.nativeDir, staging, { recursive: true, verbatimSymlinks: true });
      fs.renameSync(staging, nativeDir);
    }
    moved.push("binaries");
  }
  fs.mkdirSync(path.dirname(requested), { recursive: true });
  if (!canTraverse(user, path.dirname(requested))) {
    const digest = createHash("sha256").update(requested).digest("hex").slice(0, 12);
    dataDir = path.join(options.runtimeDir, `data-${digest}`);
    moved.push("data");
  }
  if (moved.length > 0) {
    options.log(
      `running as root and the postgres user cannot reach ${requested}: embedded Postgres ${moved.join(" and ")} ` +
        `live under ${options.runtimeDir} (data: ${dataDir}); set HERALD_PG_RUNTIME_DIR to choose another place`,
    );
  }
  fs.mkdirSync(options.runtimeDir, { recursive: true, mode: 0o755 });
  return { bins: { ...bins, nativeDir }, dataDir, runDir: `${dataDir}.run`, runAs: user };
}

async function initCluster(layout: Layout, log: (m: string) => void): Promise<void> {
  fs.mkdirSync(layout.dataDir, { recursive: true, mode: 0o700 });
  if (layout.runAs) fs.chownSync(layout.dataDir, layout.runAs.uid, layout.runAs.gid);
  log(`initialising embedded Postgres in ${layout.dataDir}`);
  await exec(layout, binary(layout.bins, "initdb"), [
    "-D", layout.dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-locale", "--no-sync",
  ]);
}

async function startCluster(layout: Layout, port: number): Promise<void> {
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    // No unix socket: its default directory may not be writable by the postgres user.
    "-c unix_socket_directories=''",
    "-c max_connections=200",
    "-c fsync=on",
  ].join(" ");
  await pgCtl(layout, ["start", "-D", layout.dataDir, "-w", "-t", "60", "-l", path.join(layout.dataDir, "server.log"), "-o", options]);
}

async function stopCluster(layout: Layout): Promise<void> {
  await pgCtl(layout, ["stop", "-D", layout.dataDir, "-m", "fast", "-w", "-t", "60"]);
}

function pgCtl(layout: Layout, args: string[]): Promise<unknown> {
  return exec(layout, binary(layout.bins, "pg_ctl"), args);
}

async function exec(layout: Layout, file: string, args: string[]): Promise<void> {
  const options: ExecFileOptions = { cwd: layout.runAs ? "/" : process.cwd(), env: { ...process.env, LC_ALL: "C" } };
  if (layout.runAs) Object.assign(options, { uid: layout.runAs.uid, gid: layout.runAs.gid });
  try {
    await run(file, args, options);
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${path.basename(file)} ${args[0]} failed: ${(e.stderr || e.stdout || e.message).trim()}`);
  }
}

/** The postmaster.pid of a live server, or null when none runs for this data directory. */
function readLivePostmaster(dataDir: string): { pid: number; port: number } | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8");
  } catch {
    return null;
  }
  const lines = text.split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port || !isProcessAlive(pid)) return null;
  return { pid, port };
}

function liveLeases(runDir: string): number[] {
  const dir = path.join(runDir, "leases");
  const pids = fs.readdirSync(dir).map(Number).filter(Boolean);
  const live = pids.filter((pid) => pid !== process.pid && isProcessAlive(pid));
  for (const pid of pids) if (!live.includes(pid)) fs.rmSync(path.join(dir, String(pid)), { force: true });
  return live;
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "postgres" });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`).catch(ignoreDuplicateDatabase);
  } finally {
    await client.end();
  }
}

function ignoreDuplicateDatabase(error: { code?: string }): void {
  if (error.code !== "42P04") throw error;
}
