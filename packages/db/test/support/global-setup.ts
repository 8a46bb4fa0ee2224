import type { TestProject } from "vitest/node";
import { startTestCluster } from "../../src/testing/index.ts";

export default async function setup(project: TestProject) {
  const cluster = await startTestCluster({ flavor: "db" });
  project.provide("templateUrl", cluster.templateUrl);
  return () => cluster.release();
}

declare module "vitest" {
  export interface ProvidedContext {
    templateUrl: string;
  }
}
