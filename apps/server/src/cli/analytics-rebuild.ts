import { rebuildAnalytics } from "@herald/db";
import { z } from "zod";
import { getSetting } from "../settings/settings-service.ts";
import { UsageError, parseFlags } from "./args.ts";
import { withCliContext } from "./bootstrap.ts";

export const ANALYTICS_REBUILD_USAGE = `pnpm herald analytics:rebuild [--time-zone ZONE]
  Recomputes the analytics rollup from the whole event log (days in ZONE, by default the
  workspace time zone). Safe while the server runs; needed after changing the time zone.`;

const InputSchema = z.object({
  "time-zone": z
    .string()
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, "must be an IANA time zone such as Europe/Berlin")
    .optional(),
});

export async function analyticsRebuild(argv: string[]): Promise<void> {
  const parsed = InputSchema.safeParse(parseFlags(argv, { "time-zone": "value" }));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--${issue.path.join(".")}: ${issue.message}`);
  }
  await withCliContext(async ({ database, env }) => {
    const timeZone = parsed.data["time-zone"] ?? (await getSetting<string>(database, env, "workspace.defaultTimezone"));
    process.stderr.write(`Rebuilding the analytics rollup from the event log (days in ${timeZone})…\n`);
    const started = Date.now();
    const r = await rebuildAnalytics(database.pool, timeZone);
    process.stdout.write(
      `Rebuilt ${r.rows} daily rows from ${r.notifications} notifications' events up to event ${r.lastEventId} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  });
}
