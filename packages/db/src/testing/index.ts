export { startTestCluster, attachEmbeddedServer, withDatabase, databaseName, type TestCluster } from "./template-database.ts";
export type { EmbeddedPostgres } from "../embedded/embedded-postgres.ts";
export { createTestDatabase, type TestDatabase } from "./test-database.ts";
export { seedSupportWorkspace, quietWindowAround } from "./support-workspace.ts";
export { freePort } from "../embedded/free-port.ts";
