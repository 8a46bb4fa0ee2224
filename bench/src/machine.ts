import { execFileSync } from "node:child_process";
import os from "node:os";
import type { BenchCluster } from "./bench-database.ts";
import { REPO_ROOT } from "./bench-env.ts";

/** Where the numbers came from: every result file carries it. */
export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  os: string;
  node: string;
  postgres: string;
  postgresSettings: Record<string, string>;
  database: string;
}

export function describeMachine(cluster: BenchCluster): Machine {
  return {
    cores: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    postgres: cluster.version,
    postgresSettings: cluster.settings,
    database: cluster.description,
  };
}

export function machineLine(m: Machine): string {
  const settings = Object.entries(m.postgresSettings)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
  return `${m.cores} cores (${m.cpuModel}), ${m.memoryGiB} GiB RAM, ${m.os}, Node ${m.node}, PostgreSQL ${m.postgres} (${settings}) on ${m.database}`;
}

/** Which engine was measured: the commit, and how many files under apps/, packages/, prisma/ differ from it. */
export interface Checkout {
  commit: string;
  uncommittedEngineFiles: number;
}

export function describeCheckout(): Checkout {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  try {
    const commit = git("rev-parse", "--short", "HEAD").trim();
    const changed = git("status", "--porcelain", "--", "apps", "packages", "prisma").split("\n").filter(Boolean).length;
    return { commit, uncommittedEngineFiles: changed };
  } catch {
    return { commit: "unknown", uncommittedEngineFiles: 0 };
  }
}

export function checkoutLine(c: Checkout): string {
  return `commit ${c.commit}${c.uncommittedEngineFiles ? ` + ${c.uncommittedEngineFiles} uncommitted file(s) in apps/, packages/, prisma/` : ", clean"}`;
}
