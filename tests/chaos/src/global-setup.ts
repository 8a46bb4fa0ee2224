import path from "node:path";
import { fileURLToPath } from "node:url";
import { startTestCluster } from "@herald/db/testing";
import { runMigrations } from "graphile-worker";
import type { TestProject } from "vitest/node";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export default async function setup(project: TestProject) {
  // A cluster of the suite's own: its outage scenarios stop the server, which must not take down
  // the unit tests' cluster running beside it.
  const cluster = await startTestCluster({
    flavor: "server+graphile-worker",
    dataDir: process.env.HERALD_CHAOS_DATA_DIR ?? path.join(REPO_ROOT, ".herald", "chaos-pg"),
    prepare: (url) => runMigrations({ connectionString: url, logger: undefined }),
  });
  project.provide("templateUrl", cluster.templateUrl);
  project.provide("embeddedDataDir", cluster.embeddedDataDir);
  return () => cluster.release();
}

declare module "vitest" {
  export interface ProvidedContext {
    templateUrl: string;
    /** Null when DATABASE_URL names the server: the outage scenarios need one they can stop. */
    embeddedDataDir: string | null;
  }
}
