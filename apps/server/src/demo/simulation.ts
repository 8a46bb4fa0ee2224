import type { Channel } from "@herald/core";
import { applyStatusEvents, ingestEvents, listDueNotifications, setSessionClock, withTransaction } from "@herald/db";
import type pg from "pg";
import type { Logger } from "pino";
import { DEMO_TYPES } from "./catalogue.ts";
import type { DemoRandom } from "./demo-random.ts";
import { statusEventsAfterSend, type SentMeta } from "./engagement.ts";
import { sendThroughSandbox } from "./sandbox-dispatch.ts";
import type { TrafficSlot } from "./traffic-plan.ts";

/** What the simulation shares between its steps: the clocked connection and what was sent. */
export interface Simulation {
  /** One connection (max 1), whose session herald.clock each step sets: every write goes through it. */
  pool: pg.Pool;
  random: DemoRandom;
  defaultTimezone: string;
  log: Logger;
  /** The real now: nothing is stamped after it. */
  now: Date;
  /** Every notification the demo created, for how people react to it once it is sent. */
  meta: Map<string, SentMeta>;
}

const CATEGORY_OF = new Map<string, string>(DEMO_TYPES.flatMap(({ type, steps }) => steps.map((s) => [`${type}:${s.channel}`, s.category] as const)));

/**
 * Sends `ids` at `at` in one transaction whose clock reads `at`, then applies the sandbox's
 * callbacks and people's opens through applyStatusEvents. Returns how many were sent.
 */
export async function sendAt(sim: Simulation, ids: ReadonlyArray<{ id: string; channel: Channel }>, at: Date): Promise<number> {
  if (ids.length === 0) return 0;
  return withTransaction(sim.pool, async (tx) => {
    await setSessionClock(tx, at);
    const outcome = await sendThroughSandbox(tx, ids, at, { defaultTimezone: sim.defaultTimezone, log: sim.log, random: sim.random.next });
    const events = statusEventsAfterSend(sim.random, outcome, at, sim.now, (id) => sim.meta.get(id) ?? { category: "", version: null });
    await applyStatusEvents(tx, events);
    return outcome.sent.length;
  });
}

/**
 * One simulated hour: first what was waiting for it (quiet hours ending, retries), then the
 * hour's events through herald.ingest_events with the clock at their arrival, then their sends
 * a few seconds later. Returns the number of notifications created.
 */
export async function runSlot(sim: Simulation, slot: TrafficSlot): Promise<number> {
  const due = await withTransaction(sim.pool, (tx) => listDueNotifications(tx, slot.at, 10_000));
  const typeOf = new Map(slot.events.map((e) => [e.eventId, e.type]));
  const created = await withTransaction(sim.pool, async (tx) => {
    await setSessionClock(tx, slot.at);
    const results = await ingestEvents(tx, slot.events);
    return results.flatMap((r) =>
      r.notifications.map((n) => {
        sim.meta.set(n.id, { category: CATEGORY_OF.get(`${typeOf.get(r.eventId)}:${n.channel}`) ?? "", version: null });
        return { id: n.id, channel: n.channel as Channel };
      }),
    );
  });
  await sendAt(sim, [...due, ...created], new Date(slot.at.getTime() + 1000 + sim.random.int(0, 4000)));
  return created.length;
}

/** What is due by `at` (quiet hours that have ended since the last hour), sent at `at`. */
export async function sendDue(sim: Simulation, at: Date): Promise<void> {
  const due = await withTransaction(sim.pool, (tx) => listDueNotifications(tx, at, 10_000));
  await sendAt(sim, due, at);
}
