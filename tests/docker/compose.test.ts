/**
 * docker-compose.yml validated offline by Compose 1.29 (the oldest Compose it must work with: no
 * top-level `name:`), and its shape: a plain `up` starts postgres + herald, the workers profile adds
 * `worker`.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const COMPOSE_FILE = fileURLToPath(new URL("../../docker-compose.yml", import.meta.url));
// An empty env file, so a developer's .env beside the compose file cannot change the defaults.
const NO_ENV_FILE = path.join(os.tmpdir(), "herald-compose-test.env");
const INSTALL_HINT = "apt-get install -y --no-install-recommends docker-compose";

/** Runs docker-compose on the file with its defaults: no variables from this shell or an .env file. */
function compose(...args: string[]): string {
  fs.writeFileSync(NO_ENV_FILE, "");
  const run = spawnSync("docker-compose", ["-f", COMPOSE_FILE, "--env-file", NO_ENV_FILE, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
  if (run.error && (run.error as NodeJS.ErrnoException).code === "ENOENT") {
    throw new Error(
      `docker-compose is not installed: run \`${INSTALL_HINT}\` (without --no-install-recommends apt pulls in a Docker engine)`,
    );
  }
  if (run.status !== 0) throw new Error(`docker-compose ${args.join(" ")} exited with ${run.status}:\n${run.stderr}`);
  return run.stdout;
}

const lines = (text: string) => text.split("\n").map((line) => line.trim()).filter(Boolean);

/**
 * Service name → its block of `docker-compose config`'s normalised YAML (1.29 has no JSON output):
 * services sit at two spaces under `services:`, their keys at four.
 */
function serviceBlocks(normalised: string): Map<string, string> {
  const blocks = new Map<string, string>();
  let section = "";
  let service = "";
  for (const line of normalised.split("\n")) {
    const top = /^(\S[^:]*):/.exec(line);
    const name = /^ {2}(\S[^:]*):\s*$/.exec(line);
    if (top) section = top[1]!;
    else if (section === "services" && name) blocks.set((service = name[1]!), "");
    else if (section === "services" && service) blocks.set(service, `${blocks.get(service)}${line}\n`);
  }
  return blocks;
}

/** The `profiles:` list of a service block ([] when it has none). */
function profilesOf(block: string): string[] {
  const list = /^ {4}profiles:\n((?: {4}- .+\n)+)/m.exec(block);
  return list ? lines(list[1]!).map((item) => item.slice(2)) : [];
}

describe("docker-compose.yml", () => {
  it("validates with Compose 1.29 (docker-compose config -q)", () => {
    expect(compose("config", "-q")).toBe("");
  });

  it("starts postgres and herald by default and adds worker with the workers profile", () => {
    const services = serviceBlocks(compose("config"));
    const always = [...services].filter(([, block]) => profilesOf(block).length === 0).map(([name]) => name);
    expect(always.sort()).toEqual(["herald", "postgres"]);
    expect(profilesOf(services.get("worker") ?? "")).toEqual(["workers"]);
    expect(lines(compose("config", "--profiles"))).toEqual(["workers"]);
    expect(lines(compose("--profile", "workers", "config", "--services")).sort()).toEqual(["herald", "postgres", "worker"]);
  });

  it("gives the worker HERALD_ROLE=worker and no published port, so it scales", () => {
    const worker = serviceBlocks(compose("--profile", "workers", "config")).get("worker") ?? "";
    expect(worker).toMatch(/HERALD_ROLE: worker\n/);
    expect(worker).not.toMatch(/^ {4}ports:/m);
    expect(worker).not.toMatch(/^ {4}container_name:/m);
  });

  it("defaults HERALD_PUBLIC_URL and the database password, and builds herald from the repository", () => {
    const services = serviceBlocks(compose("config"));
    const herald = services.get("herald") ?? "";
    expect(herald).toMatch(/^ {4}build:\n {6}context: .+\n/m);
    expect(herald).toMatch(/HERALD_MODE: production\n/);
    expect(herald).toMatch(/HERALD_PUBLIC_URL: http:\/\/localhost:3000\n/);
    expect(herald).toMatch(/DATABASE_URL: postgres:\/\/herald:change-me@postgres:5432\/herald\n/);
    expect(herald).toMatch(/postgres:\n {8}condition: service_healthy\n/);
    expect(herald).toMatch(/published: 3000\n {6}target: 3000\n/);
    // Longer than HERALD_SHUTDOWN_TIMEOUT_MS's default (30 s), so a graceful stop is not killed.
    expect(herald).toMatch(/stop_grace_period: 40s\n/);
    expect(services.get("postgres")).toMatch(/image: postgres:17\n/);
    expect(services.get("postgres")).toMatch(/pg_isready/);
  });
});
