import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Scenario } from "../src/scenario.ts";
import { firstRequests, ok, status } from "../src/simulator/faults.ts";
import { emitNews, seedWorkload } from "../src/workload.ts";

const USERS = 30;
// Above the engine's 10 s retry floor, so honouring it is visible.
const RETRY_AFTER_S = 12;

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

  it("dead-letters nothing, waits as long as each provider asked, and delivers everything after", async () => {
    const s = scenario;
    await seedWorkload(s.sql, USERS);
    // Every provider refuses its first USERS requests: each message is throttled at least once
    // unless the breaker held it back first.
    for (const provider of ["ses", "twilio", "fcm"] as const) {
      s.sim.plan(provider, firstRequests(USERS, status(code, { "retry-after": String(RETRY_AFTER_S) }), ok(20)));
    }
    await s.ready(s.startWorker());
    const expected = await emitNews(s.sql, USERS);
    await s.drain(expected, 180_000);
    const summary = await s.finish(expected);

    expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, duplicate_budget: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected });
    const throttled = s.sim.ledger.filter((e) => e.fault.kind === "status");
    expect(throttled.length).toBe(3 * USERS);
    // No message was tried again sooner than its refusal said.
    for (const refusal of throttled) {
      const next = s.sim.ledger.find((e) => e.seq > refusal.seq && e.address === refusal.address);
      expect(next, `a retry for ${refusal.address}`).toBeDefined();
      expect(next!.at.getTime() - refusal.at.getTime()).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 - 50);
    }
  });
});
