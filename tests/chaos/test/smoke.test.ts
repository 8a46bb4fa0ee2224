import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Scenario } from "../src/scenario.ts";
import { emitNews, seedWorkload } from "../src/workload.ts";

// The zero-fault scenario at a small size, in `pnpm test`: the simulator, the real worker
// process and the invariants all run, so none of them can rot unnoticed.
const USERS = 20;

describe("chaos smoke: no faults", () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await Scenario.open("smoke", inject("templateUrl"));
  });
  afterAll(async () => scenario?.close());

  it("sends every notification exactly once through the real SDKs, and the invariants hold", async () => {
    await seedWorkload(scenario.sql, USERS);
    await scenario.ready(scenario.startWorker());
    const expected = await emitNews(scenario.sql, USERS);
    await scenario.drain(expected);
    const summary = await scenario.finish(expected);

    expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, duplicate_budget: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected });
    // One token exchange, then one request per notification: no hidden SDK retries.
    const byProvider = Object.groupBy(scenario.sim.ledger, (e) => e.provider ?? "unknown");
    expect(Object.fromEntries(Object.entries(byProvider).map(([p, entries]) => [p, entries!.length]))).toEqual({
      ses: USERS,
      twilio: USERS,
      fcm: USERS,
      oauth: 1,
    });
  });
});
