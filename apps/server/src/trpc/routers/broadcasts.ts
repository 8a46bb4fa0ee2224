import {
  BROADCAST_STATUSES,
  BroadcastInputSchema,
  BroadcastScheduleSchema,
  broadcastReport,
  checkBroadcastAction,
  reportCsv,
  twoProportionZTest,
  type BroadcastAction,
} from "@herald/core";
import {
  appendAudit,
  broadcastCounters,
  broadcastLift,
  broadcastLiveRows,
  broadcastProgress,
  cancelBroadcast,
  createBroadcast,
  databaseTime,
  deleteBroadcastDraft,
  findBroadcast,
  listBroadcasts,
  pauseBroadcast,
  queueBroadcastWatch,
  removeKeyedJob,
  resumeBroadcast,
  scheduleKeyedJob,
  transitionBroadcast,
  updateBroadcastDraft,
  type BroadcastCounters,
  type BroadcastRecord,
} from "@herald/db";
import { z } from "zod";
import { checkBroadcastReferences } from "../../broadcasts/broadcast-checks.ts";
import { startInstant } from "../../broadcasts/broadcast-schedule.ts";
import { dryRunSummary } from "../../broadcasts/dry-run-summary.ts";
import { liveProgress } from "../../broadcasts/live-progress.ts";
import { AppError } from "../../errors.ts";
import type { Context } from "../context.ts";
import { memberProcedure, router } from "../trpc.ts";

const IdInput = z.object({ id: z.string().regex(/^\d{1,18}$/, "must be a broadcast id") });
const jobKey = (id: string) => `broadcast:${id}`;

async function requireBroadcast(ctx: Context, id: string): Promise<BroadcastRecord> {
  const broadcast = await findBroadcast(ctx.database.pool, id);
  if (!broadcast) throw new AppError("NOT_FOUND", `There is no broadcast ${id}`);
  return broadcast;
}

function requireAction(broadcast: BroadcastRecord, action: BroadcastAction): void {
  const allowed = checkBroadcastAction(action, broadcast.status);
  if (!allowed.ok) throw new AppError("CONFLICT", allowed.reason);
}

function toBroadcast(b: BroadcastRecord) {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    ...b,
    startsAt: iso(b.startsAt),
    fanoutDoneAt: iso(b.fanoutDoneAt),
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
    startedAt: iso(b.startedAt),
    finishedAt: iso(b.finishedAt),
  };
}

/** A list row's counters, with the share of rows settled (null before it has any). */
function withProgress(c: BroadcastCounters = { targeted: 0, pending: 0, sent: 0, failed: 0, skipped: 0 }) {
  return { ...c, progress: c.targeted === 0 ? null : (c.targeted - c.pending) / c.targeted };
}

async function audit(ctx: Context & { member: { id: string; email: string } }, action: string, id: string, detail?: Record<string, unknown>) {
  await appendAudit(ctx.database.prisma, { actorMemberId: ctx.member.id, actor: ctx.member.email, action: `broadcasts.${action}`, target: id, detail: detail as never, ip: ctx.ip });
}

export const broadcastsRouter = router({
  list: memberProcedure
    .input(z.object({ status: z.enum(BROADCAST_STATUSES).nullish(), cursor: z.string().regex(/^\d{1,18}$/).nullish(), limit: z.number().int().min(1).max(100).default(25) }))
    .query(async ({ ctx, input }) => {
      const page = await listBroadcasts(ctx.database.pool, { status: input.status ?? null, before: input.cursor ?? null, limit: input.limit });
      const counters = await broadcastCounters(ctx.database.pool, page.items.map((b) => b.id));
      return { items: page.items.map((b) => ({ ...toBroadcast(b), counters: withProgress(counters.get(b.id)) })), nextCursor: page.nextCursor };
    }),

  /**
   * One broadcast with its live counters (per channel), polled every few seconds while it runs:
   * one grouped scan, no per-variant funnel or z-tests (those are `report`'s, read when done).
   */
  get: memberProcedure.input(IdInput).query(async ({ ctx, input }) => {
    const broadcast = await requireBroadcast(ctx, input.id);
    return { broadcast: toBroadcast(broadcast), progress: liveProgress(await broadcastLiveRows(ctx.database.pool, input.id)) };
  }),

  create: memberProcedure.input(BroadcastInputSchema).mutation(async ({ ctx, input }) => {
    await checkBroadcastReferences(ctx.database.pool, input);
    const id = await createBroadcast(ctx.database.pool, input, ctx.member.id);
    await audit(ctx, "create", id, { name: input.name });
    return { id };
  }),

  update: memberProcedure.input(z.object({ id: IdInput.shape.id, broadcast: BroadcastInputSchema })).mutation(async ({ ctx, input }) => {
    requireAction(await requireBroadcast(ctx, input.id), "edit");
    await checkBroadcastReferences(ctx.database.pool, input.broadcast);
    if (!(await updateBroadcastDraft(ctx.database.pool, input.id, input.broadcast, ctx.member.id))) {
      throw new AppError("CONFLICT", "This broadcast is no longer a draft: it cannot be edited");
    }
    return { ok: true as const };
  }),

  delete: memberProcedure.input(IdInput).mutation(async ({ ctx, input }) => {
    requireAction(await requireBroadcast(ctx, input.id), "edit");
    if (!(await deleteBroadcastDraft(ctx.database.pool, input.id))) throw new AppError("CONFLICT", "Only a draft can be deleted");
    await audit(ctx, "delete", input.id);
    return { ok: true as const };
  }),

  /** What sending now would do: audience, holdout, gate verdicts by reason, per channel and variant; ETA; SMS segments. */
  dryRun: memberProcedure.input(IdInput).query(async ({ ctx, input }) => {
    const broadcast = await requireBroadcast(ctx, input.id);
    return dryRunSummary(ctx, broadcast);
  }),

  /** Schedules a draft (now, at an instant, or at a local time per recipient); refused when nobody would get it. */
  schedule: memberProcedure.input(IdInput.extend({ schedule: BroadcastScheduleSchema })).mutation(async ({ ctx, input }) => {
    const broadcast = await requireBroadcast(ctx, input.id);
    requireAction(broadcast, "schedule");
    // The database's clock, as the workers and the pump use: an API host whose clock is off
    // would otherwise start "now" minutes late, or refuse an instant as past.
    const start = startInstant(input.schedule, await databaseTime(ctx.database.pool));
    if (!start.ok) throw new AppError("BAD_REQUEST", `schedule: ${start.reason}`);
    await checkBroadcastReferences(ctx.database.pool, broadcast);
    const dry = await dryRunSummary(ctx, broadcast);
    if (dry.audience === 0) throw new AppError("BAD_REQUEST", "The segment matches nobody right now: there is no one to send to");
    if (dry.sendable === 0) throw new AppError("BAD_REQUEST", "Every recipient would be skipped by the gates: see the dry run's reasons");
    const moved = await transitionBroadcast(ctx.database.pool, input.id, ["draft"], "scheduled", { schedule: input.schedule, startsAt: start.at, memberId: ctx.member.id });
    if (!moved) throw new AppError("CONFLICT", "This broadcast changed meanwhile: reload it");
    await scheduleKeyedJob(ctx.database.pool, "start_broadcast", { broadcastId: input.id }, start.at, jobKey(input.id));
    await audit(ctx, "schedule", input.id, { schedule: input.schedule, startsAt: start.at.toISOString() });
    return { startsAt: start.at.toISOString() };
  }),

  unschedule: memberProcedure.input(IdInput).mutation(async ({ ctx, input }) => {
    requireAction(await requireBroadcast(ctx, input.id), "unschedule");
    if (!(await transitionBroadcast(ctx.database.pool, input.id, ["scheduled"], "draft", { schedule: null, startsAt: null, memberId: ctx.member.id }))) {
      throw new AppError("CONFLICT", "It has started meanwhile: pause or cancel it instead");
    }
    await removeKeyedJob(ctx.database.pool, jobKey(input.id));
    await audit(ctx, "unschedule", input.id);
    return { ok: true as const };
  }),

  pause: memberProcedure.input(IdInput).mutation(async ({ ctx, input }) => {
    requireAction(await requireBroadcast(ctx, input.id), "pause");
    const held = await pauseBroadcast(ctx.database.pool, input.id, `paused by ${ctx.member.name}`, ctx.member.id);
    if (held === null) throw new AppError("CONFLICT", "It is no longer sending");
    await audit(ctx, "pause", input.id, { held });
    return { held };
  }),

  resume: memberProcedure.input(IdInput).mutation(async ({ ctx, input }) => {
    const broadcast = await requireBroadcast(ctx, input.id);
    requireAction(broadcast, "resume");
    const released = await resumeBroadcast(ctx.database.pool, input.id, ctx.member.id);
    if (released === null) throw new AppError("CONFLICT", "It is no longer paused");
    // A fan-out stopped by the pause carries on from its cursor.
    const now = await databaseTime(ctx.database.pool);
    if (!broadcast.fanoutDoneAt) await scheduleKeyedJob(ctx.database.pool, "start_broadcast", { broadcastId: input.id }, now, jobKey(input.id));
    await queueBroadcastWatch(ctx.database.pool, now);
    ctx.nudgePump();
    await audit(ctx, "resume", input.id, { released });
    return { released };
  }),

  cancel: memberProcedure.input(IdInput).mutation(async ({ ctx, input }) => {
    requireAction(await requireBroadcast(ctx, input.id), "cancel");
    const canceled = await cancelBroadcast(ctx.database.pool, input.id, ctx.member.id);
    if (canceled === null) throw new AppError("CONFLICT", "It can no longer be canceled");
    await removeKeyedJob(ctx.database.pool, jobKey(input.id));
    await audit(ctx, "cancel", input.id, { canceled });
    return { canceled };
  }),

  /** The funnel per channel and variant, variants compared, and the holdout's lift on an activity. */
  report: memberProcedure
    .input(IdInput.extend({ activity: z.string().regex(/^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/, "must be an activity name").optional(), windowHours: z.number().int().min(1).max(24 * 90).default(48) }))
    .query(async ({ ctx, input }) => {
      const broadcast = await requireBroadcast(ctx, input.id);
      const report = broadcastReport(await broadcastProgress(ctx.database.pool, input.id), broadcast.variants.map((v) => v.version));
      const groups = input.activity && broadcast.startedAt ? await broadcastLift(ctx.database.pool, input.id, input.activity, input.windowHours) : null;
      // Treated is "B": a win means the broadcast moved people to act.
      const lift = groups && {
        ...groups,
        activity: input.activity!,
        windowHours: input.windowHours,
        test: twoProportionZTest({ successes: groups.holdout.converted, trials: groups.holdout.users }, { successes: groups.treated.converted, trials: groups.treated.users }),
      };
      return { broadcast: toBroadcast(broadcast), report, lift, csv: reportCsv(report) };
    }),
});
