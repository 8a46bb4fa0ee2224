import { runMigrations } from "graphile-worker";
import type { TestProject } from "vitest/node";
import { startTestCluster } from "../../src/testing/index.ts";

export default async function setup(project: TestProject) {
  // The pump adds graphile-worker jobs in SQL, so the template carries graphile-worker's schema.
  const cluster = await startTestCluster({
    flavor: "db+graphile-worker",
    prepare: (url) => runMigrations({ connectionString: url }),
  });
  project.provide("templateUrl", cluster.templateUrl);
  return () => cluster.release();
}

declare module "vitest" {
  export interface ProvidedContext {
    templateUrl: string;
  }
}
