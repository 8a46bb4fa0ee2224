import { MigrationError, migrate } from "@herald/db";
import { EnvError } from "../env.ts";
import { UsageError } from "./args.ts";
import { withCliContext } from "./bootstrap.ts";
import { APIKEY_CREATE_USAGE, apikeyCreate } from "./apikey-create.ts";
import { MEMBER_CREATE_USAGE, memberCreate } from "./member-create.ts";
import { ANALYTICS_REBUILD_USAGE, analyticsRebuild } from "./analytics-rebuild.ts";
import { DEMO_USAGE, demo } from "./demo.ts";

const USAGE = `Usage: pnpm herald <command> [options]

Commands:
  db:migrate       Apply pending migrations (the server also does this at start).
  member:create    ${MEMBER_CREATE_USAGE.split("\n").slice(1).join("\n                   ").trim()}
  apikey:create    ${APIKEY_CREATE_USAGE.split("\n").slice(1).join("\n                   ").trim()}
  analytics:rebuild ${ANALYTICS_REBUILD_USAGE.split("\n").slice(1).join("\n                   ").trim()}
  demo             ${DEMO_USAGE.split("\n").slice(1).join("\n                   ").trim()}

Every command uses the same database as the server: DATABASE_URL, or the embedded Postgres in
HERALD_DATA_DIR, whether or not the server is running.`;

const COMMANDS: Record<string, (argv: string[]) => Promise<void>> = {
  "db:migrate": () =>
    withCliContext(
      async ({ databaseUrl }) => {
        const { applied } = await migrate(databaseUrl);
        process.stdout.write(applied.length ? `Applied ${applied.join(", ")}\n` : "Already up to date\n");
      },
      { migrate: false },
    ),
  "member:create": memberCreate,
  "apikey:create": apikeyCreate,
  "analytics:rebuild": analyticsRebuild,
  demo,
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help") {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  const run = COMMANDS[command];
  if (!run) {
    process.stderr.write(`herald: unknown command "${command}"\n\n${USAGE}\n`);
    return 2;
  }
  try {
    await run(rest);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof EnvError || error instanceof MigrationError) {
      process.stderr.write(`herald ${command}: ${error.message}\n`);
      return error instanceof UsageError ? 2 : 1;
    }
    process.stderr.write(`herald ${command}: ${(error as Error).message}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
