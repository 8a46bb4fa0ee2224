import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const webSource = resolve(here, "../../../apps/web/src");

/** Specifiers a module loads at runtime: `import type` and `export type` are erased and skipped. */
function runtimeImports(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gms)) found.push(m[1]!);
  return found;
}

/** Every package (bare specifier) reached from `entry` through relative runtime imports. */
function packagesReachedFrom(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of runtimeImports(readFileSync(file, "utf8"))) {
      if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(entry);
  return packages;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe("the browser entry", () => {
  it("reaches no package but zod: no template renderer in the dashboard's bundle", () => {
    expect([...packagesReachedFrom(resolve(here, "../src/browser.ts"))]).toEqual(["zod"]);
    // The full entry does reach them, so the walk above can see what it is looking for.
    expect(packagesReachedFrom(resolve(here, "../src/index.ts"))).toEqual(new Set(["zod", "liquidjs", "sanitize-html"]));
  });

  it("is the only way the dashboard imports @herald/core", () => {
    const offenders = sourceFiles(webSource).filter((f) => /from\s+"@herald\/core"/.test(readFileSync(f, "utf8")));
    expect(offenders).toEqual([]);
  });
});
