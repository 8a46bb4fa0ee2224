/** .dockerignore keeps build output and local state out of the image, and everything the server reads in. */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseDockerignore } from "./support/build-context.ts";

const isIgnored = parseDockerignore(fs.readFileSync(fileURLToPath(new URL("../../.dockerignore", import.meta.url)), "utf8"));

describe(".dockerignore", () => {
  it.each([
    "node_modules/vitest/package.json",
    "apps/web/node_modules/react/index.js",
    "apps/web/dist/index.html",
    ".herald/pg/PG_VERSION",
    "packages/db/.herald/x",
    ".git/HEAD",
    "test-artifacts/report.json",
    "bench/results/run.json",
    "packages/db/src/generated/prisma/client.ts",
    "apps/server/tsconfig.tsbuildinfo",
    ".env",
  ])("excludes %s", (file) => {
    expect(isIgnored(file)).toBe(true);
  });

  it.each([
    "package.json",
    "pnpm-lock.yaml",
    "pnpm-workspace.yaml",
    "docs/roles.md",
    "prisma/schema.prisma",
    "prisma/migrations/20261130000000_init/migration.sql",
    "apps/server/src/main.ts",
    "apps/web/index.html",
    "packages/db/src/client.ts",
    "bench/README.md",
    "patches/graphile-worker@0.18.0.patch",
  ])("keeps %s", (file) => {
    expect(isIgnored(file)).toBe(false);
  });

  it("reads patterns as Docker does: ** spans directories, ! re-includes, the last match wins", () => {
    const matcher = parseDockerignore("**/*.log\nbuild\n!build/keep.txt\n# comment\n/tmp/\n");
    expect(matcher("a/b/c.log")).toBe(true);
    expect(matcher("c.log")).toBe(true);
    expect(matcher("build/out.js")).toBe(true);
    expect(matcher("build/keep.txt")).toBe(false);
    expect(matcher("src/build/out.js")).toBe(false);
    expect(matcher("tmp/x")).toBe(true);
    expect(matcher("# comment")).toBe(false);
  });
});
