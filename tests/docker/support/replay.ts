import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseEnv, parseExecForm, takeFlags, type Stage } from "./dockerfile.ts";

/** A RUN the replay must not execute as written, with the reason and what it does instead. */
export interface SkippedRun {
  command: RegExp;
  reason: string;
  /** Checks that the machine already provides what the command would have installed; throws if not. */
  instead: (match: RegExpExecArray) => void;
}

export interface ReplayOptions {
  stages: Stage[];
  /** The build context (already filtered by .dockerignore). */
  context: string;
  /** Empty directory; each stage's filesystem is a folder in it. */
  into: string;
  skips: SkippedRun[];
  /** Environment every RUN starts from (the base image's, roughly), before the stage's ENV. */
  baseEnv: Record<string, string>;
}

/** What the final stage looks like after the replay. */
export interface ReplayResult {
  /** The final stage's WORKDIR on this machine. */
  workdir: string;
  /** The final stage's ENV. */
  env: Record<string, string>;
  cmd: string[] | null;
  healthcheck: string[] | null;
  /** Instructions not replayed because they only describe the image (USER, EXPOSE, …). */
  metadata: string[];
  skipped: Array<{ line: number; command: string; reason: string }>;
}

const METADATA = new Set(["USER", "EXPOSE", "HEALTHCHECK", "CMD", "ENTRYPOINT", "LABEL", "STOPSIGNAL", "VOLUME", "SHELL"]);

/**
 * Executes the stages' WORKDIR, COPY, ENV and RUN in order on this machine. A container path
 * `/app` of stage `build` becomes `<into>/build/app`; RUN executes with bash in the mapped WORKDIR.
 */
export function replayDockerfile(options: ReplayOptions): ReplayResult {
  const roots = new Map<string, string>();
  const result: ReplayResult = { workdir: "", env: {}, cmd: null, healthcheck: null, metadata: [], skipped: [] };
  for (const stage of options.stages) {
    if (roots.has(stage.base)) {
      throw new Error(`stage ${stage.name} builds FROM stage ${stage.base}: not supported by the replay`);
    }
    const root = path.join(options.into, stage.name);
    fs.mkdirSync(root, { recursive: true });
    roots.set(stage.name, root);
    const inStage = (containerPath: string) => path.join(root, containerPath);
    let workdir = "/";
    const env: Record<string, string> = {};
    result.cmd = null;
    result.healthcheck = null;
    result.metadata = [];

    for (const { line, keyword, args } of stage.instructions) {
      const where = `Dockerfile line ${line} (${keyword} ${args})`;
      switch (keyword) {
        case "WORKDIR":
          workdir = path.posix.resolve(workdir, args);
          fs.mkdirSync(inStage(workdir), { recursive: true });
          break;
        case "ENV":
          for (const [name, value] of parseEnv(args)) env[name] = value;
          break;
        case "COPY": {
          const { flags, rest } = takeFlags(args);
          const words = parseExecForm(rest) ?? rest.split(/\s+/);
          const from = flags.get("from");
          const sourceRoot = from === undefined ? options.context : roots.get(from);
          if (!sourceRoot) throw new Error(`${where}: no earlier stage named ${from}`);
          const dest = (p: string) => inStage(path.posix.resolve(workdir, p));
          copy(words.slice(0, -1), words.at(-1)!, { sourceRoot, fromContext: from === undefined, dest, where });
          break;
        }
        case "RUN": {
          if (parseExecForm(args)) throw new Error(`${where}: exec-form RUN is not supported by the replay`);
          const skip = options.skips.find((s) => s.command.test(args));
          if (skip) {
            skip.instead(skip.command.exec(args)!);
            result.skipped.push({ line, command: args, reason: skip.reason });
            break;
          }
          const run = spawnSync("bash", ["-c", args], {
            cwd: inStage(workdir),
            env: { ...options.baseEnv, ...env },
            encoding: "utf8",
            maxBuffer: 256 * 1024 * 1024,
          });
          if (run.status !== 0) {
            throw new Error(`${where} exited with ${run.status ?? run.signal}:\n${tail(run.stdout)}\n${tail(run.stderr)}`);
          }
          break;
        }
        default:
          if (!METADATA.has(keyword)) throw new Error(`${where}: the replay does not know ${keyword}; teach it or leave it out`);
          result.metadata.push(`${keyword} ${args}`);
          if (keyword === "CMD") result.cmd = parseExecForm(args);
          if (keyword === "HEALTHCHECK") {
            const { rest } = takeFlags(args);
            result.healthcheck = rest.startsWith("CMD ") ? parseExecForm(rest.slice(4).trim()) : null;
          }
      }
    }
    result.workdir = inStage(workdir);
    result.env = env;
  }
  return result;
}

interface CopyTarget {
  sourceRoot: string;
  fromContext: boolean;
  dest: (containerPath: string) => string;
  where: string;
}

/** Docker's COPY: a directory source copies its contents; a destination ending in / is a directory. */
function copy(sources: string[], destination: string, target: CopyTarget): void {
  if (sources.length === 0) throw new Error(`${target.where}: nothing to copy`);
  const intoDirectory = destination.endsWith("/") || sources.length > 1;
  const dest = target.dest(destination);
  for (const source of sources) {
    if (/[*?[]/.test(source)) throw new Error(`${target.where}: wildcards are not supported by the replay`);
    const relative = target.fromContext ? path.posix.normalize(source) : source;
    if (target.fromContext && relative.startsWith("..")) {
      throw new Error(`${target.where}: ${source} is outside the build context`);
    }
    const from = path.join(target.sourceRoot, relative);
    if (!fs.existsSync(from)) {
      throw new Error(`${target.where}: ${source} is not in the build context (is it tracked by git and not in .dockerignore?)`);
    }
    if (fs.statSync(from).isDirectory()) {
      fs.mkdirSync(dest, { recursive: true });
      cp(["-a", `${from}/.`, `${dest}/`], target.where);
    } else {
      const file = intoDirectory ? path.join(dest, path.basename(from)) : dest;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      cp(["-a", from, file], target.where);
    }
  }
}

function cp(args: string[], where: string): void {
  // cp -a keeps pnpm's relative symlinks as they are, like COPY does.
  const run = spawnSync("cp", args, { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${where}: cp ${args.join(" ")} failed: ${run.stderr}`);
}

function tail(text: string | null, lines = 40): string {
  return (text ?? "").trimEnd().split("\n").slice(-lines).join("\n");
}
