import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Scenario } from "../src/scenario.ts";
import { sesAtRate } from "../src/ses-at-rate.ts";
import { latency } from "../src/simulator/faults.ts";
import { emitNews, seedWorkload } from "../src/workload.ts";

/** SES's default sending quota in a new production account: 14 messages a second. */
const SES_RATE = 14;
// Long: 5 minutes of email at the quota; small (`pnpm test`): about 15 s.
const SECONDS = process.env.HERALD_CHAOS_LONG ? 300 : 15;
const EMAILS = SES_RATE * SECONDS;

describe(`the simulator enforcing SES's ${SES_RATE}/s quota, Herald's SES rate set to ${SES_RATE}/s`, () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await Scenario.open("load-ses-rate", inject("templateUrl"));
  });
  afterAll(async () => scenario?.close());

  it(
    `keeps its SES calls near ${SES_RATE}/s in every window, draws almost no 429s and sends everything`,
    async () => {
      const s = scenario;
      await seedWorkload(s.sql, EMAILS);
      const env = await sesAtRate(s, SES_RATE);
      for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, latency(50, 200));
      // "You can exceed this quota for short bursts, but not for a sustained period of time"
      // (SES's documentation): 14 a second, with two seconds' worth of room.
      s.sim.limitRate("ses", SES_RATE, 2 * SES_RATE);
      // Two workers share the one bucket in the database, as every worker of a deployment does.
      await Promise.all([s.ready(s.startWorker(env)), s.ready(s.startWorker(env))]);
      const expected = await emitNews(s.sql, EMAILS);
      await s.drain(expected, SECONDS * 1000 + 120_000);
      const summary = await s.finish(expected);

      const calls = s.sim.ledger.filter((e) => e.provider === "ses").map((e) => e.at.getTime());
      const throttled = s.sim.ledger.filter((e) => e.provider === "ses" && e.fault.kind === "status").length;
      const worst = worstWindowExcess(calls, SES_RATE);
      const excess = worst.excess;
      const seconds = (calls.at(-1)! - calls[0]!) / 1000;
      console.info(
        `SES: ${calls.length} calls in ${seconds.toFixed(1)} s (${(EMAILS / seconds).toFixed(2)} emails/s), ${throttled} answered 429, ` +
          `worst window ${excess.toFixed(1)} calls above ${SES_RATE}/s (${worst.calls} calls from ${worst.fromMs} to ${worst.toMs} ms after the first)`,
      );
      // Herald's bucket holds half a second of SES_RATE and refills at SES_RATE a second, and each
      // call starts within a quarter second of its token (older ones are renewed), so the calls
      // starting in a window of W seconds number at most SES_RATE·W + 0.75·SES_RATE. The rest of
      // the simulator's two seconds of room is for the time a call takes to reach it after it
      // starts: up to 0.9 s for a worker's first calls, with every process of the run starting.
      expect(excess).toBeLessThanOrEqual(2 * SES_RATE);
      expect(throttled).toBeLessThanOrEqual(Math.floor(calls.length / 100));
      expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, duplicate_budget: 0, status_regressions: 0, locked_jobs: 0 });
      expect(summary.statuses).toEqual({ sent: expected });
    },
    SECONDS * 1000 + 240_000,
  );
});

/**
 * The most calls any window of the sorted call times holds beyond `perSecond` times its length:
 * max over i ≤ j of (j − i + 1) − perSecond·(t_j − t_i), in one pass; with that window's bounds
 * (ms after the first call) and its calls, for the log when a run exceeds its room.
 */
function worstWindowExcess(times: readonly number[], perSecond: number): { excess: number; fromMs: number; toMs: number; calls: number } {
  let worst = { excess: 0, fromMs: 0, toMs: 0, calls: 0 };
  let lowest = { level: Number.POSITIVE_INFINITY, index: 0 };
  times.forEach((t, j) => {
    const level = j - (perSecond * t) / 1000;
    if (level < lowest.level) lowest = { level, index: j };
    const excess = level - lowest.level + 1;
    if (excess > worst.excess) worst = { excess, fromMs: times[lowest.index]! - times[0]!, toMs: t - times[0]!, calls: j - lowest.index + 1 };
  });
  return worst;
}
