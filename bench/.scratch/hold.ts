import { resolveDatabaseTarget } from "@herald/db";
const t = await resolveDatabaseTarget({ databaseUrl: undefined, dataDir: "/work/main/.herald/bench-pg", runtimeDir: "/var/lib/herald", log: console.log });
console.log(t.url);
process.on("SIGTERM", async () => { await t.release(); process.exit(0); });
setInterval(() => {}, 1 << 30);
