import { getSetting } from "../settings/settings-service.ts";
import { DemoRefusal, runDemo } from "../demo/run-demo.ts";
import { UsageError, parseFlags } from "./args.ts";
import { withCliContext } from "./bootstrap.ts";

export const DEMO_USAGE = `pnpm demo [--reset] [--users N] [--days N]
  Fills the workspace with a believable history: N users (default 20000) across time zones
  with devices, emails, phones and behaviour, categories, notification types, templates with
  two published versions, three past broadcasts and N days (default 30) of traffic sent through
  the sandbox; then prints a demo admin's login. Refuses a workspace that has content unless
  --reset, which deletes that content first (members and settings stay). Stop the server first.`;

function positiveInt(value: string | true | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--${name} must be a whole number from 1 to ${max}, not ${JSON.stringify(value)}`);
  return n;
}

export async function demo(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, { reset: "flag", users: "value", days: "value", seed: "value" });
  const users = positiveInt(flags.users, "users", 20_000, 200_000);
  const days = positiveInt(flags.days, "days", 30, 90);
  const seed = positiveInt(flags.seed, "seed", 7, 2 ** 31 - 1);
  await withCliContext(async ({ database, databaseUrl, env }) => {
    const defaultTimezone = await getSetting<string>(database, env, "workspace.defaultTimezone");
    const startedAt = Date.now();
    const progress = (line: string) => process.stderr.write(`[${((Date.now() - startedAt) / 1000).toFixed(0).padStart(3)} s] ${line}\n`);
    try {
      const result = await runDemo(
        { database, databaseUrl, defaultTimezone },
        { users, days, seed, reset: flags.reset === true, progress, liveWorkerWithinMs: env.HERALD_WORKER_SILENCE_MS },
      );
      process.stdout.write(
        [
          `Demo workspace ready in ${result.seconds.toFixed(0)} s: ${result.users.toLocaleString("en-US")} users, ${days} days of traffic, ${result.broadcasts.length} broadcasts.`,
          `Start Herald with \`pnpm start\`, open ${env.publicUrl} and sign in as`,
          `  email:    ${result.admin.email}`,
          `  password: ${result.admin.password}`,
          "",
        ].join("\n"),
      );
    } catch (error) {
      if (error instanceof DemoRefusal) throw new UsageError(error.message);
      throw error;
    }
  });
}
