export { startTestCluster, withDatabase, databaseName, type TestCluster } from "./template-database.ts";
export { createTestDatabase, type TestDatabase } from "./test-database.ts";
export { seedSupportWorkspace, quietWindowAround } from "./support-workspace.ts";
