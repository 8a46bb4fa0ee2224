import { startTestCluster } from "@herald/db/testing";
import type { TestProject } from "vitest/node";

export default async function setup(project: TestProject) {
  const cluster = await startTestCluster({ flavor: "browser" });
  project.provide("templateUrl", cluster.templateUrl);
  return () => cluster.release();
}

declare module "vitest" {
  export interface ProvidedContext {
    templateUrl: string;
  }
}
