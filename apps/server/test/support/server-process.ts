import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

export interface RunningProcess {
  child: ChildProcess;
  output(): string;
  exit: Promise<number | null>;
}

/** Runs a TypeScript entry point of the server (main.ts, cli/main.ts) as its own process. */
export function spawnEntry(entry: "main" | "cli", args: string[], env: Record<string, string | undefined>, stdin?: string): RunningProcess {
  const file = entry === "main" ? "apps/server/src/main.ts" : "apps/server/src/cli/main.ts";
  const child = spawn(process.execPath, [file, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HERALD_LOG_LEVEL: "info", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  if (stdin !== undefined) child.stdin!.end(stdin);
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exit };
}

export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}
