import { rebuildAnalytics } from "@herald/db";
import { getSetting } from "../settings/settings-service.ts";
import { parseFlags } from "./args.ts";
import { withCliContext } from "./bootstrap.ts";

export const ANALYTICS_REBUILD_USAGE = `pnpm herald analytics:rebuild
  Recomputes the analytics rollup from the whole event log, with days in the workspace time
  zone. Safe while the server runs (new events are picked up after it).`;

export async function analyticsRebuild(argv: string[]): Promise<void> {
  parseFlags(argv, {});
  await withCliContext(async ({ database, env }) => {
    const timeZone = await getSetting<string>(database, env, "workspace.defaultTimezone");
    process.stderr.write(`Rebuilding the analytics rollup from the event log (days in ${timeZone})…\n`);
    const started = Date.now();
    const r = await rebuildAnalytics(database.pool, timeZone);
    process.stdout.write(
      `Rebuilt ${r.rows} daily rows from ${r.notifications} notifications' events up to event ${r.lastEventId} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  });
}
