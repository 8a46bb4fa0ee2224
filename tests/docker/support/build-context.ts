import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

interface IgnoreRule {
  pattern: string;
  regexp: RegExp;
  negated: boolean;
}

/**
 * A .dockerignore as Docker reads it: patterns from the context root, `**` spanning directories,
 * `!` re-including, the last matching rule winning, and a match on a directory covering all of
 * its contents. Character classes are refused rather than approximated.
 */
export function parseDockerignore(text: string): (file: string) => boolean {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split("\n")) {
    let line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const negated = line.startsWith("!");
    if (negated) line = line.slice(1).trim();
    const pattern = path.posix.normalize(line).replace(/^\/+/, "").replace(/\/+$/, "");
    rules.push({ pattern, regexp: globToRegExp(pattern), negated });
  }
  return (file) => {
    const parts = file.split("/");
    let ignored = false;
    for (const rule of rules) {
      // A rule matching the file or any directory above it applies to the file.
      const hit = parts.some((_, i) => rule.regexp.test(parts.slice(0, i + 1).join("/")));
      if (hit) ignored = !rule.negated;
    }
    return ignored;
  };
}

function globToRegExp(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      i++;
      if (pattern[i + 1] === "/") {
        i++;
        source += "(?:.*/)?";
      } else {
        source += ".*";
      }
    } else if (c === "*") {
      source += "[^/]*";
    } else if (c === "?") {
      source += "[^/]";
    } else if (c === "[") {
      throw new Error(`.dockerignore pattern "${pattern}": character classes are not supported by this test's matcher`);
    } else if (c === "\\" && i + 1 < pattern.length) {
      source += escapeRegExp(pattern[++i]!);
    } else {
      source += escapeRegExp(c);
    }
  }
  return new RegExp(`^${source}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * The build context a clean clone would send: the files git tracks, as they are in the working
 * tree, minus what .dockerignore excludes; with `untracked`, also the files git neither tracks nor
 * ignores. Returns the relative paths copied.
 */
export function copyBuildContext(repo: string, into: string, options: { untracked?: boolean } = {}): string[] {
  const list = options.untracked ? ["ls-files", "-z", "--cached", "--others", "--exclude-standard"] : ["ls-files", "-z"];
  const tracked = execFileSync("git", list, { cwd: repo, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
    .split("\0")
    .filter(Boolean);
  if (tracked.length === 0) throw new Error(`git ls-files lists nothing in ${repo}: the replay needs a git checkout`);
  const ignorePath = path.join(repo, ".dockerignore");
  const isIgnored = fs.existsSync(ignorePath) ? parseDockerignore(fs.readFileSync(ignorePath, "utf8")) : () => false;
  const copied: string[] = [];
  for (const file of tracked) {
    const source = path.join(repo, file);
    // A tracked file deleted in the working tree is not in a build context either.
    if (!fs.existsSync(source) && !isSymlink(source)) continue;
    if (isIgnored(file)) continue;
    fs.mkdirSync(path.dirname(path.join(into, file)), { recursive: true });
    fs.cpSync(source, path.join(into, file), { verbatimSymlinks: true });
    copied.push(file);
  }
  return copied;
}

function isSymlink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
