/**
 * No Docker engine runs here, so this proves the image builds from the repository and the package
 * registry alone: it copies the build context a fresh clone would send (git-tracked files minus
 * .dockerignore) to a new directory, replays the Dockerfile's steps there, and starts the result
 * against a fresh database on the machine's Postgres.
 *
 * HERALD_REPLAY_UNTRACKED=1 also copies untracked, not git-ignored files (to try the replay before
 * committing them); the default is what a clone holds.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyBuildContext } from "./support/build-context.ts";
import { parseDockerfile, takeFlags, type Stage } from "./support/dockerfile.ts";
import { replayDockerfile, type ReplayResult, type SkippedRun } from "./support/replay.ts";
import { freePort } from "@herald/db/testing";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * The only RUN steps not executed as written. Each touches the machine rather than the project;
 * the replay checks instead that the machine already has what the step would install.
 */
const SKIPPED_RUNS: SkippedRun[] = [
  {
    command: /^npm (?:i|install) -g pnpm@(\S+)$/,
    reason: "installs pnpm globally (outside the project); the replay uses this machine's pnpm, which must be the same version",
    instead: (match) => {
      const version = execFileSync("pnpm", ["--version"], { encoding: "utf8" }).trim();
      expect(version, "this machine's pnpm must match the version the Dockerfile installs").toBe(match[1]);
      expect(version.split(".")[0]).toBe("12");
    },
  },
];

/** What a RUN sees besides the stage's ENV: like the base image, no NODE_ENV and no CI. */
function baseEnv(): Record<string, string> {
  const keep = ["PATH", "HOME", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE"];
  keep.push("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy");
  return Object.fromEntries(keep.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));
}

let scratch = "";
let database = "";
let contextFiles: string[] = [];
let stages: Stage[] = [];
let replay: ReplayResult;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "herald-docker-replay-"));
  const context = path.join(scratch, "context");
  contextFiles = copyBuildContext(REPO, context, { untracked: process.env.HERALD_REPLAY_UNTRACKED === "1" });
  stages = parseDockerfile(fs.readFileSync(path.join(REPO, "Dockerfile"), "utf8"));
  try {
    replay = replayDockerfile({ stages, context, into: path.join(scratch, "stages"), skips: SKIPPED_RUNS, baseEnv: baseEnv() });
  } catch (error) {
    throw new Error(`${(error as Error).message}${untrackedHint()}`);
  }
}, 900_000);

afterAll(() => {
  if (database) psql(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe("the Dockerfile, replayed on a copy of the build context", () => {
  it("skips only the steps listed in SKIPPED_RUNS", () => {
    expect(replay.skipped.map((s) => s.command)).toEqual([expect.stringMatching(/^npm i -g pnpm@12\./)]);
  });

  it("copies every workspace package's manifest before pnpm install (else the lockfile and workspace disagree)", () => {
    const build = stages[0]!.instructions;
    const install = build.findIndex((i) => i.keyword === "RUN" && /\bpnpm install\b/.test(i.args));
    expect(install, "the first stage runs pnpm install").toBeGreaterThan(0);
    const copied = build
      .slice(0, install)
      .filter((i) => i.keyword === "COPY")
      .flatMap((i) => {
        const words = takeFlags(i.args).rest.split(/\s+/);
        const [sources, dest] = [words.slice(0, -1), words.at(-1)!];
        return sources.map((source) => (dest === "./" ? source : path.posix.join(dest, path.posix.basename(source))));
      });
    const manifests = contextFiles.filter((file) => /^(apps|packages)\/[^/]+\/package\.json$/.test(file));
    expect(manifests.length).toBeGreaterThan(0);
    expect(manifests.filter((file) => !copied.includes(file))).toEqual([]);
  });

  it("ends in a production image that runs Herald's server", () => {
    expect(replay.env).toMatchObject({ HERALD_MODE: "production", NODE_ENV: "production" });
    expect(replay.cmd).toEqual(["node", "apps/server/src/main.ts"]);
    expect(replay.metadata).toContain("USER node");
    expect(replay.metadata).toContain("EXPOSE 3000");
    expect(replay.healthcheck?.[0]).toBe("node");
  });

  it("builds the dashboard, installs the server's dependencies and generates the Prisma client", () => {
    const app = replay.workdir;
    expect(fs.existsSync(path.join(app, "apps/web/dist/index.html"))).toBe(true);
    const manifest = fs.readFileSync(path.join(app, "apps/server/package.json"), "utf8");
    const { dependencies } = JSON.parse(manifest) as { dependencies: Record<string, string> };
    const installed = (dep: string) => fs.existsSync(path.join(app, "apps/server/node_modules", dep, "package.json"));
    const missing = Object.keys(dependencies).filter((dep) => !installed(dep));
    expect(missing).toEqual([]);
    expect(fs.existsSync(path.join(app, "packages/db/src/generated/prisma/client.ts"))).toBe(true);
    // Read at start: the access table and the migrations.
    expect(fs.existsSync(path.join(app, "docs/roles.md"))).toBe(true);
    expect(fs.readdirSync(path.join(app, "prisma/migrations")).length).toBeGreaterThan(0);
  });

  it("starts with DATABASE_URL, becomes ready, passes its HEALTHCHECK and stops cleanly on SIGTERM", async () => {
    database = `herald_replay_${randomBytes(4).toString("hex")}`;
    psql(`CREATE DATABASE "${database}"`);
    const port = await freePort();
    const env: Record<string, string> = {
      ...baseEnv(),
      ...replay.env,
      DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
      PORT: String(port),
    };
    const user = unprivilegedUser();
    if (user) Object.assign(env, { HOME: os.tmpdir(), PATH: `${user.bin}${path.delimiter}${env.PATH}` });
    const [command, ...args] = replay.cmd!;
    const ids = user ? { uid: user.uid, gid: user.gid } : {};
    const server = spawn(command!, args, { cwd: replay.workdir, env, stdio: ["ignore", "pipe", "pipe"], ...ids });
    const output = collect(server);
    try {
      await waitForReady(`http://127.0.0.1:${port}/readyz`, server, output, 60_000);

      const [checkCommand, ...checkArgs] = replay.healthcheck!;
      const check = spawnSync(checkCommand!, checkArgs, { cwd: replay.workdir, env, encoding: "utf8", timeout: 10_000, ...ids });
      expect(check.status, `HEALTHCHECK failed: ${check.stderr}`).toBe(0);

      server.kill("SIGTERM");
      const code = await exited(server, 40_000);
      expect(code, `exit after SIGTERM\n${output()}`).toBe(0);
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
    }
  });
});

/**
 * The image runs as `USER node`, which this machine lacks. As root, the server runs as `nobody`
 * instead, so a start that needs to write into the (root-owned) application directory fails here
 * as it would in the container. `nobody` cannot reach this Node under /root, so a link to it goes
 * into the scratch directory (`bin`, put first on PATH). Not root: the test's user is unprivileged.
 */
function unprivilegedUser(): { uid: number; gid: number; bin: string } | null {
  if (process.getuid?.() !== 0) return null;
  const [uid, gid] = ["-u", "-g"].map((flag) => Number(execFileSync("id", [flag, "nobody"], { encoding: "utf8" }).trim()));
  const bin = path.join(scratch, "bin");
  fs.mkdirSync(bin, { recursive: true });
  try {
    fs.linkSync(process.execPath, path.join(bin, "node"));
  } catch {
    fs.copyFileSync(process.execPath, path.join(bin, "node"));
    fs.chmodSync(path.join(bin, "node"), 0o755);
  }
  // mkdtemp makes the scratch directory 0700; the container's /app is world-readable.
  fs.chmodSync(scratch, 0o755);
  const version = execFileSync(path.join(bin, "node"), ["--version"], { encoding: "utf8", uid: uid!, gid: gid! }).trim();
  expect(version, "nobody must run the same Node as this test").toBe(process.version);
  return { uid: uid!, gid: gid!, bin };
}

function psql(sql: string): void {
  execFileSync("psql", [ADMIN_URL, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql], { stdio: ["ignore", "ignore", "pipe"] });
}

function collect(child: ChildProcess): () => string {
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return () => text.trimEnd().split("\n").slice(-30).join("\n");
}

async function waitForReady(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready:\n${output()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`GET ${url} was not 200 within ${timeoutMs} ms (last: ${last}):\n${output()}`);
}

function exited(child: ChildProcess, timeoutMs: number): Promise<number | string | null> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no exit within ${timeoutMs} ms of SIGTERM`)), timeoutMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? signal);
    });
  });
}

/** Files in the checkout that a clone would not have: the usual reason a replay fails here and not locally. */
function untrackedHint(): string {
  const untracked = execFileSync("git", ["ls-files", "--others", "--exclude-standard"], { cwd: REPO, encoding: "utf8" }).trim();
  if (!untracked || process.env.HERALD_REPLAY_UNTRACKED === "1") return "";
  const files = untracked.split("\n");
  const shown = files.slice(0, 25).join("\n") + (files.length > 25 ? `\n… and ${files.length - 25} more` : "");
  return (
    `\n\nThese files are in the checkout but not tracked by git, so the replayed build context lacks them ` +
    `(commit them, or set HERALD_REPLAY_UNTRACKED=1 to replay the working tree):\n${shown}`
  );
}
