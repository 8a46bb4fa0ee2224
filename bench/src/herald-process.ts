import { spawn, type ChildProcess } from "node:child_process";
import pg from "pg";
import { createApiKey } from "../../apps/server/src/auth/api-keys.ts";
import { REPO_ROOT } from "./bench-env.ts";
import { readCommandLine, readProcessCpuMs, startMemorySampler } from "./process-stats.ts";
import { freePort } from "@herald/db/testing";

export type HeraldRole = "api" | "worker" | "all";

/** A Herald server (apps/server/src/main.ts) running as a child process of the bench. */
export interface HeraldProcess {
  pid: number;
  role: HeraldRole;
  /** http://127.0.0.1:<port> (api and all roles). */
  baseUrl: string;
  /** Peak resident memory of the node process so far, MiB. */
  peakRssMb(): number;
  /** CPU time the node process has used so far, ms (diff two readings to charge a round). */
  cpuMs(): number;
  /** SIGTERM, then wait for a graceful exit (SIGKILL after 45 s). */
  stop(): Promise<void>;
}

export interface StartHeraldOptions {
  databaseUrl: string;
  role: HeraldRole;
  childBase: Record<string, string>;
  env?: Record<string, string>;
}

const SERVER_ENTRY = "apps/server/src/main.ts";
const live = new Set<ChildProcess>();

/** Kills every child still running (the bench was interrupted or failed half-way). */
export function killLiveChildren(): void {
  for (const child of live) child.kill("SIGKILL");
}

/**
 * Spawns node itself (not pnpm, not a shell), so the pid whose memory is sampled is the
 * server's. Ready means /readyz answers 200 (api, all) or the process's worker heartbeat is in
 * Postgres (worker: it is written after every runner started).
 */
export async function startHerald(options: StartHeraldOptions): Promise<HeraldProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env: {
      ...options.childBase,
      HERALD_MODE: "development",
      HERALD_LOG_LEVEL: "warn",
      ...options.env,
      DATABASE_URL: options.databaseUrl,
      PORT: String(port),
      HOST: "127.0.0.1",
      HERALD_ROLE: options.role,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  const output = captureOutput(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  void exited.then(() => live.delete(child));
  const pid = child.pid!;
  const memory = startMemorySampler(pid);
  const baseUrl = `http://127.0.0.1:${port}`;

  const ready = options.role === "worker" ? () => hasHeartbeat(options.databaseUrl, pid) : () => answersReady(baseUrl);
  const deadline = Date.now() + 90_000;
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  for (;;) {
    if (exitCode !== undefined) throw new Error(`Herald (role ${options.role}) exited with code ${exitCode} before it was ready:\n${output()}`);
    if (await ready().catch(() => false)) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`Herald (role ${options.role}) was not ready within 90 s:\n${output()}`);
    }
    await sleep(100);
  }
  const commandLine = readCommandLine(pid);
  if (commandLine.length > 0 && !commandLine.some((arg) => arg.endsWith(SERVER_ENTRY))) {
    throw new Error(`pid ${pid} is not the Herald server process: ${commandLine.join(" ")}`);
  }

  return {
    pid,
    role: options.role,
    baseUrl,
    peakRssMb: () => memory.peakMb(),
    cpuMs: () => readProcessCpuMs(pid) ?? NaN,
    stop: async () => {
      memory.peakMb();
      memory.stop();
      if (exitCode !== undefined) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
      const code = await exited;
      clearTimeout(timer);
      if (code !== 0) process.stderr.write(`bench: Herald (role ${options.role}) exited with code ${code}:\n${output()}\n`);
    },
  };
}

/**
 * Starts Herald while `setup` runs (nothing is timed yet), so the server's seconds of start-up
 * overlap the data generation instead of following it. A failed start is reported once the
 * setup is done (handled meanwhile, so it cannot end the bench as an unhandled rejection); a
 * failed setup stops the server it started.
 */
export async function startHeraldDuring<T>(options: StartHeraldOptions, setup: () => Promise<T>): Promise<{ herald: HeraldProcess; result: T }> {
  const starting = startHerald(options);
  starting.catch(() => undefined);
  let result: T;
  try {
    result = await setup();
  } catch (error) {
    await starting.then((herald) => herald.stop(), () => undefined);
    throw error;
  }
  return { herald: await starting, result };
}

/**
 * An admin API key, made by the function behind `pnpm herald apikey:create` over a connection of
 * the bench's own: spawning the CLI was a second Node process starting beside the server, a
 * second or so of every scenario that needs a key.
 */
export async function createAdminApiKey(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: "herald-bench" });
  await client.connect();
  try {
    const { key } = await createApiKey(client, { name: "bench", scope: "admin", ratePerMinute: null, createdBy: null });
    return key;
  } finally {
    await client.end();
  }
}

async function answersReady(baseUrl: string): Promise<boolean> {
  const response = await fetch(`${baseUrl}/readyz`);
  await response.arrayBuffer();
  return response.status === 200;
}

async function hasHeartbeat(databaseUrl: string, pid: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: "herald-bench" });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM herald.worker_heartbeats WHERE pid = $1", [pid]);
    return (rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

function captureOutput(child: ChildProcess): () => string {
  let text = "";
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString()).slice(-16_384);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  return () => text;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
