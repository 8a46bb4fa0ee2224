import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { optOutNow, suppressNow } from "../src/instrumentation.ts";
import { Scenario } from "../src/scenario.ts";
import { ok } from "../src/simulator/faults.ts";
import { addressesOf, emitNews, seedWorkload } from "../src/workload.ts";

const USERS = 60;

describe("suppressions and opt-outs committed while two workers send", () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await Scenario.open("consent-mid-run", inject("templateUrl"));
  });
  afterAll(async () => scenario?.close());

  it("sends nothing to an address or user after the change committed, loses nothing, sends nothing twice", async () => {
    const s = scenario;
    await seedWorkload(s.sql, USERS);
    for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, ok(30));
    await Promise.all([s.ready(s.startWorker()), s.ready(s.startWorker())]);
    let changes: Promise<void> | null = null;
    s.sim.onRequest = (entry) => {
      if (changes || entry.provider === "oauth" || entry.seq < 20) return;
      changes = (async () => {
        for (let n = USERS - 14; n <= USERS - 10; n++) await suppressNow(s.sql, "email", addressesOf(n).email);
        for (let n = USERS - 9; n <= USERS - 5; n++) await suppressNow(s.sql, "sms", addressesOf(n).sms);
        for (let n = USERS - 4; n <= USERS; n++) await optOutNow(s.sql, `u-${n}`, "news", "push");
      })();
    };
    const expected = await emitNews(s.sql, USERS);
    await s.drain(expected);
    await changes;
    const summary = await s.finish(expected);

    expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, duplicate_budget: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.sends_after_opt_out).toBe(0);
    expect((summary.statuses.sent ?? 0) + (summary.statuses.skipped ?? 0)).toBe(expected);
  });
});
