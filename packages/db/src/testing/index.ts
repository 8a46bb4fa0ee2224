export { startTestCluster, withDatabase, databaseName, type TestCluster } from "./template-database.ts";
export { createTestDatabase, type TestDatabase } from "./test-database.ts";
