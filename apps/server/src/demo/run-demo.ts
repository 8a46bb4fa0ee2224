import {
  appendAudit,
  countLiveWorkers,
  countWorkspaceContent,
  insertDemoActivities,
  insertDemoDevices,
  insertDemoOptOuts,
  insertDemoQuietHours,
  insertDemoUsers,
  rebuildAnalytics,
  resetWorkspaceContent,
  surviveServerLoss,
  type Database,
} from "@herald/db";
import { Logger as WorkerLogger, runMigrations } from "graphile-worker";
import pg from "pg";
import pino from "pino";
import { catchUpAnalytics } from "../analytics/catch-up-analytics.ts";
import { broadcastStarts, DEMO_BROADCASTS, finishBroadcasts, runBroadcast } from "./broadcasts.ts";
import { demoRandom } from "./demo-random.ts";
import { generatePopulation } from "./population.ts";
import { runSlot, sendDue, type Simulation } from "./simulation.ts";
import { planTraffic } from "./traffic-plan.ts";
import { createCatalogue, createSegments, ensureDemoAdmin, publishSecondVersions } from "./workspace-setup.ts";

export interface DemoOptions {
  users: number;
  days: number;
  /** Empty the workspace's content first; without it a workspace with content is refused. */
  reset: boolean;
  seed: number;
  progress: (line: string) => void;
  /** A server's worker silent this long counts as stopped. */
  liveWorkerWithinMs: number;
}

export interface DemoResult {
  admin: { email: string; password: string };
  users: number;
  notifications: number;
  broadcasts: string[];
  seconds: number;
}

/** Why the demo will not run: the caller prints it and exits non-zero. */
export class DemoRefusal extends Error {
  override name = "DemoRefusal";
}

const CHUNK = 2_000;
/** Templates whose second version is published halfway through the history. */
const TRAFFIC_TEMPLATES = ["order_shipped", "password_reset", "weekly_digest", "streak_reminder", "lesson_recommended", "welcome"];

/**
 * Fills the workspace with `days` days of history for `users` users, through Herald's own
 * functions (decision 0017): configuration and people, then the traffic hour by hour with the
 * broadcasts among it, then the analytics rollup's own catch-up.
 */
export async function runDemo(ctx: { database: Database; databaseUrl: string; defaultTimezone: string }, options: DemoOptions): Promise<DemoResult> {
  const started = Date.now();
  const { database } = ctx;
  const pool = database.pool;
  await runMigrations({ connectionString: ctx.databaseUrl, logger: new WorkerLogger(() => () => undefined) });
  if ((await countLiveWorkers(pool, options.liveWorkerWithinMs)) > 0) {
    throw new DemoRefusal("a Herald server is running against this database: stop it first (its workers would send part of the demo's history as today's)");
  }
  const content = await countWorkspaceContent(pool);
  if (Object.values(content).some((n) => n > 0)) {
    if (!options.reset) {
      const found = Object.entries(content).filter(([, n]) => n > 0).map(([what, n]) => `${n.toLocaleString("en-US")} ${what}`).join(", ");
      throw new DemoRefusal(`the workspace is not empty (${found}). Run \`pnpm demo --reset\` to delete its content (users, notifications, templates, broadcasts, analytics; members and settings stay) and fill it again`);
    }
    options.progress("Emptying the workspace (--reset)…");
    await resetWorkspaceContent(pool);
    await rebuildAnalytics(pool, ctx.defaultTimezone);
  }

  const random = demoRandom(options.seed);
  const now = new Date();
  const admin = await ensureDemoAdmin(database);
  options.progress("Categories, notification types, templates (two published versions each), segments…");
  await createCatalogue(pool, admin.memberId);
  await publishSecondVersions(pool, DEMO_BROADCASTS.map((b) => b.fields.templateKey), admin.memberId);
  const segmentIds = await createSegments(pool, admin.memberId);

  const population = generatePopulation(random, options.users, now, options.days);
  for (let i = 0; i < population.users.length; i += CHUNK) {
    await insertDemoUsers(pool, population.users.slice(i, i + CHUNK));
    options.progress(`Users ${Math.min(i + CHUNK, population.users.length).toLocaleString("en-US")} / ${population.users.length.toLocaleString("en-US")}`);
  }
  for (let i = 0; i < population.devices.length; i += CHUNK) await insertDemoDevices(pool, population.devices.slice(i, i + CHUNK));
  for (let i = 0; i < population.activities.length; i += 5 * CHUNK) await insertDemoActivities(pool, population.activities.slice(i, i + 5 * CHUNK));
  await insertDemoQuietHours(pool, population.quietHours);
  await insertDemoOptOuts(pool, population.optOuts);
  options.progress(`${population.devices.length.toLocaleString("en-US")} devices, ${population.activities.length.toLocaleString("en-US")} activities, ${population.quietHours.length} quiet hours, ${population.optOuts.length} opt-outs`);

  // Without waiting for each commit's flush: the demo writes thousands of small transactions, and
  // a crash mid-way leaves a half-filled demo either way (run it again with --reset).
  const clockPool = surviveServerLoss(
    new pg.Pool({ connectionString: ctx.databaseUrl, max: 1, idleTimeoutMillis: 0, application_name: "herald-demo", options: "-c synchronous_commit=off" }),
  );
  const sim: Simulation = { pool: clockPool, random, defaultTimezone: ctx.defaultTimezone, log: pino({ level: "silent" }), now, meta: new Map() };
  const broadcasts: string[] = [];
  let notifications = 0;
  try {
    const slots = planTraffic(random, population, now, options.days);
    const starts = broadcastStarts(now, options.days);
    const midpoint = now.getTime() - (options.days / 2) * 86_400_000;
    let secondVersions = false;
    let day = "";
    for (const slot of slots) {
      while (broadcasts.length < starts.length && starts[broadcasts.length]!.getTime() <= slot.at.getTime()) {
        const index = broadcasts.length;
        broadcasts.push(await runBroadcast(sim, index, starts[index]!, segmentIds, admin.memberId));
        options.progress(`Broadcast "${DEMO_BROADCASTS[index]!.fields.name}" sent on ${starts[index]!.toISOString().slice(0, 10)}`);
      }
      if (!secondVersions && slot.at.getTime() >= midpoint) {
        await publishSecondVersions(clockPool, TRAFFIC_TEMPLATES, admin.memberId);
        secondVersions = true;
      }
      notifications += await runSlot(sim, slot);
      const today = slot.at.toISOString().slice(0, 10);
      if (today !== day) {
        if (day) options.progress(`Traffic through ${day}: ${notifications.toLocaleString("en-US")} notifications`);
        day = today;
        // Broadcast rows deferred by quiet hours settle later: the watch's check, once a day.
        await finishBroadcasts(sim, slot.at);
      }
    }
    await sendDue(sim, new Date(now.getTime() - 60_000));
    await finishBroadcasts(sim, new Date(now.getTime() - 60_000));
  } finally {
    await clockPool.end();
  }
  options.progress(`Traffic done: ${notifications.toLocaleString("en-US")} event notifications. Rolling up analytics…`);
  for (;;) {
    const r = await catchUpAnalytics(pool, { timeZone: async () => ctx.defaultTimezone, budgetMs: 600_000 });
    if (r.caughtUp) break;
  }
  await appendAudit(database.prisma, {
    actorMemberId: null,
    actor: "cli",
    action: "demo.fill",
    target: `${options.users} users`,
    detail: { users: options.users, days: options.days, reset: options.reset, seed: options.seed },
  });
  return { admin: { email: admin.email, password: admin.password }, users: population.users.length, notifications, broadcasts, seconds: (Date.now() - started) / 1000 };
}
