import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Scenario } from "../src/scenario.ts";
import { firstRequests, ok, status, type FaultPlan } from "../src/simulator/faults.ts";
import type { LedgerEntry } from "../src/simulator/ledger.ts";
import { emitNews, seedWorkload } from "../src/workload.ts";

const LONG = Boolean(process.env.HERALD_CHAOS_LONG);
// Small: every provider refuses its first USERS requests. Long (`pnpm test:chaos --long`): every
// provider refuses everything for two minutes of wall time, after a first wave that measures the
// unthrottled rate.
const USERS = LONG ? 100 : 10;
const STORM_MS = 120_000;
/** HERALD_RETRY_FLOOR_MS: the small run's floor, so honouring a longer Retry-After is visible and quick. */
const FLOOR_MS = LONG ? 10_000 : 1_000;
/** Above the floor, so honouring it is visible. */
const RETRY_AFTER_S = LONG ? 12 : 3;
/** During a long storm, requests per second at most this share of the unthrottled rate. */
const STORM_RATE_SHARE = 0.25;

// Throttling (429) and a provider's own overload (503), each with the wait it asks for.
describe.each([
  { code: 429, name: "throttle-storm" },
  { code: 503, name: "unavailable-storm" },
])("a $code storm with Retry-After on every provider", ({ code, name }) => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await Scenario.open(name, inject("templateUrl"));
  });
  afterAll(async () => scenario?.close());

  it(`dead-letters nothing, waits as long as each provider asked${LONG ? ", sends far slower during a two-minute storm" : ""}, and delivers everything after`, async () => {
    const s = scenario;
    const refusal = status(code, { "retry-after": String(RETRY_AFTER_S) });
    await seedWorkload(s.sql, LONG ? 2 * USERS : USERS);
    await s.ready(s.startWorker({ HERALD_RETRY_FLOOR_MS: String(FLOOR_MS) }));
    let expected = 0;
    let unthrottledRate = 0;
    let storm = { from: 0, to: 0 };
    if (LONG) {
      for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, ok(20));
      expected += await emitNews(s.sql, USERS, "calm");
      await s.drain(expected);
      unthrottledRate = requestsPerSecond(s.sim.ledger.filter((e) => e.provider !== "oauth"));
      storm = { from: Date.now(), to: Date.now() + STORM_MS };
      const during: FaultPlan = (entry) => (entry.at.getTime() < storm.to ? refusal : ok(20));
      for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, during);
      expected += await emitNews(s.sql, USERS, "storm", USERS + 1);
    } else {
      // Each message is throttled at least once unless the breaker held it back first.
      for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, firstRequests(USERS, refusal, ok(20)));
      expected += await emitNews(s.sql, USERS);
    }
    await s.drain(expected, LONG ? STORM_MS + 180_000 : 120_000);
    const summary = await s.finish(expected);

    expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, duplicate_budget: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected });
    const throttled = s.sim.ledger.filter((e) => e.fault.kind === "status");
    if (!LONG) expect(throttled.length).toBe(3 * USERS);
    // No message was tried again sooner than its refusal said.
    for (const refused of throttled) {
      const next = s.sim.ledger.find((e) => e.seq > refused.seq && e.address === refused.address);
      expect(next, `a retry for ${refused.address}`).toBeDefined();
      expect(next!.at.getTime() - refused.at.getTime()).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 - 50);
    }
    if (LONG) {
      // The storm slowed Herald down: far fewer requests per second than when nothing refused.
      const stormRate = throttled.length / (STORM_MS / 1000);
      console.info(`${name}: ${unthrottledRate.toFixed(1)} requests/s unthrottled, ${stormRate.toFixed(1)} during the storm (${throttled.length} refused)`);
      expect(throttled.length).toBeGreaterThan(0);
      expect(stormRate).toBeLessThan(unthrottledRate * STORM_RATE_SHARE);
      expect(s.sim.ledger.filter((e) => e.at.getTime() >= storm.to && e.accepted).length).toBeGreaterThan(0);
    }
  });
});

/** Provider requests per second over the span they were made in. */
function requestsPerSecond(entries: readonly LedgerEntry[]): number {
  const times = entries.map((e) => e.at.getTime());
  const spanS = Math.max(0.001, (Math.max(...times) - Math.min(...times)) / 1000);
  return entries.length / spanS;
}
