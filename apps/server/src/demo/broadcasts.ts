import type { Channel } from "@herald/core";
import { completeFinishedBroadcasts, createBroadcast, listPendingBroadcastNotifications, setSessionClock, transitionBroadcast, type BroadcastFields } from "@herald/db";
import type { JobHelpers } from "graphile-worker";
import { segmentAudience } from "../broadcasts/segment-audience.ts";
import { startBroadcastTask } from "../tasks/start-broadcast.ts";
import { sendAt, type Simulation } from "./simulation.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The demo's past broadcasts; `ago` is the share of the simulated window before now. */
export const DEMO_BROADCASTS: ReadonlyArray<{ ago: number; hourUtc: number; segment: string; fields: Omit<BroadcastFields, "segmentId"> }> = [
  {
    ago: 0.8,
    hourUtc: 16,
    segment: "free_with_email",
    fields: {
      name: "Winter sale — subject line A/B",
      templateKey: "winter_sale",
      variants: [{ version: 1, percent: 50 }, { version: 2, percent: 50 }],
      channels: ["email"],
      category: "promotions",
      lane: "bulk",
      holdoutPercent: 5,
      throttlePerMinute: null,
      data: {},
    },
  },
  {
    ago: 0.45,
    hourUtc: 15,
    segment: "all_with_device",
    fields: {
      name: "Speaking practice launch",
      templateKey: "product_update",
      variants: [{ version: 2, percent: 100 }],
      channels: ["push"],
      category: "product",
      lane: "bulk",
      holdoutPercent: 0,
      throttlePerMinute: null,
      data: {},
    },
  },
  {
    ago: 0.17,
    hourUtc: 17,
    segment: "inactive_7d",
    fields: {
      name: "We miss you",
      templateKey: "comeback",
      variants: [{ version: 1, percent: 50 }, { version: 2, percent: 50 }],
      channels: ["push"],
      category: "promotions",
      lane: "bulk",
      holdoutPercent: 10,
      throttlePerMinute: null,
      data: {},
    },
  },
];

/** When each demo broadcast starts, `days` days of history before `now`. */
export function broadcastStarts(now: Date, days: number): Date[] {
  return DEMO_BROADCASTS.map((b) => {
    // Two days back at least: rows that quiet hours deferred have settled by now.
    const day = Math.floor((now.getTime() - Math.max(2, Math.round(days * b.ago)) * DAY) / DAY) * DAY;
    return new Date(day + b.hourUtc * 60 * MINUTE);
  });
}

const quietHelpers = { logger: { info() {}, warn() {}, error() {}, debug() {} } } as unknown as JobHelpers;

/**
 * A broadcast the way a marketer's goes: composed an hour ahead, scheduled, started by the
 * start_broadcast task (segment snapshot, fan-out in chunks, A/B buckets, holdout), its rows sent
 * over the following minutes, and marked sent by the watch's own query once nothing is pending.
 */
export async function runBroadcast(sim: Simulation, index: number, at: Date, segmentIds: Record<string, string>, memberId: string): Promise<string> {
  const spec = DEMO_BROADCASTS[index]!;
  await setSessionClock(sim.pool, new Date(at.getTime() - 60 * MINUTE));
  const id = await createBroadcast(sim.pool, { ...spec.fields, segmentId: segmentIds[spec.segment]! }, memberId);
  const schedule = { kind: "at", at: at.toISOString(), timezone: "UTC" };
  await transitionBroadcast(sim.pool, id, ["draft"], "scheduled", { schedule, startsAt: at, memberId });
  await setSessionClock(sim.pool, at);
  const start = startBroadcastTask({ pool: sim.pool, audience: segmentAudience, defaultTimezone: async () => sim.defaultTimezone, now: () => at, jobs: null });
  await start({ broadcastId: id }, quietHelpers);

  // No send jobs from the fan-out (jobs: null): the demo sends its rows itself, a thousand every
  // half minute as the pump and the runners would take them, and jobs left in the queue would
  // greet the first server with a backlog of rows already sent.
  let after = "0";
  for (let step = 0; ; step++) {
    const rows = await listPendingBroadcastNotifications(sim.pool, id, after, 1000);
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    for (const row of rows) sim.meta.set(row.id, { category: spec.fields.category, version: row.templateVersion });
    await sendAt(sim, rows.map((r) => ({ id: r.id, channel: r.channel as Channel })), new Date(at.getTime() + 5_000 + step * 30_000));
  }
  await finishBroadcasts(sim, new Date(at.getTime() + 30 * MINUTE));
  return id;
}

/** The watch's completion query at `at`: broadcasts with nothing pending become sent. */
export async function finishBroadcasts(sim: Simulation, at: Date): Promise<void> {
  await setSessionClock(sim.pool, at);
  await completeFinishedBroadcasts(sim.pool);
}
