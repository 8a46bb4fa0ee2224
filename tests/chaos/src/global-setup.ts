import { startTestCluster } from "@herald/db/testing";
import { runMigrations } from "graphile-worker";
import type { TestProject } from "vitest/node";

export default async function setup(project: TestProject) {
  const cluster = await startTestCluster({
    flavor: "server+graphile-worker",
    prepare: (url) => runMigrations({ connectionString: url, logger: undefined }),
  });
  project.provide("templateUrl", cluster.templateUrl);
  return () => cluster.release();
}

declare module "vitest" {
  export interface ProvidedContext {
    templateUrl: string;
  }
}
