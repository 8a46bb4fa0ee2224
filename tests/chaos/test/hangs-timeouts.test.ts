import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Scenario } from "../src/scenario.ts";
import { acceptThenHang, hang, ok, type FaultPlan } from "../src/simulator/faults.ts";
import { emitNews, seedWorkload } from "../src/workload.ts";

const USERS = 20;
/** HERALD_PROVIDER_TIMEOUT_MS: short, so giving up is quick to see. */
const TIMEOUT_MS = 2_000;
/** HERALD_RETRY_FLOOR_MS. */
const FLOOR_MS = 1_000;
/** A generous ceiling on give-up-and-retry (timeout + floor + a loaded machine's slack). */
const RETRY_WITHIN_MS = 15_000;

// Requests 3 and 10 of each provider hang unaccepted; request 6 is accepted and then hangs (the
// provider took it and never answered: Herald cannot know, and sends it again). Google's first
// token exchange hangs too, before any push reaches FCM.
const hangs: FaultPlan = (_entry, index) => (index === 2 || index === 9 ? hang() : index === 5 ? acceptThenHang() : ok(20));

describe("provider calls that hang", () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await Scenario.open("hangs-timeouts", inject("templateUrl"));
  });
  afterAll(async () => scenario?.close());

  it("gives up after the provider timeout, holds no lock longer, retries, and sends everything; an accepted hang is the only duplicate", async () => {
    const s = scenario;
    await seedWorkload(s.sql, USERS);
    for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, hangs);
    s.sim.plan("oauth", (_entry, index) => (index === 0 ? hang() : ok()));
    await s.ready(s.startWorker({ HERALD_PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS), HERALD_RETRY_FLOOR_MS: String(FLOOR_MS) }));
    const expected = await emitNews(s.sql, USERS);
    await s.drain(expected, 90_000);
    const summary = await s.finish(expected);

    const hung = s.sim.ledger.filter((e) => e.fault.kind === "hang");
    const acceptedHangs = hung.filter((e) => e.accepted);
    expect(hung.length).toBe(3 * 3 + 1);
    expect(acceptedHangs.length).toBe(3);
    expect(summary).toMatchObject({ notifications: expected, lost: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected });
    // Each accepted hang is exposed: in the budget, and sent once more (Herald could not know).
    expect(summary.duplicate_budget).toBe(acceptedHangs.length);
    expect(summary.duplicates).toBe(acceptedHangs.length);
    // Herald gave up on each hung request and tried again: not before its timeout, not much after.
    for (const request of hung) {
      const next =
        request.provider === "oauth"
          ? s.sim.ledger.find((e) => e.seq > request.seq && e.provider === "oauth")
          : s.sim.ledger.find((e) => e.seq > request.seq && e.address === request.address);
      expect(next, `a retry after hung request ${request.seq} (${request.provider})`).toBeDefined();
      const waitedMs = next!.at.getTime() - request.at.getTime();
      // The timeout runs from when the client started the request, a moment before the ledger
      // stamps its arrival (up to tens of ms on a loaded machine).
      expect(waitedMs, `request ${request.seq} (${request.provider})`).toBeGreaterThanOrEqual(TIMEOUT_MS - 500);
      expect(waitedMs, `request ${request.seq} (${request.provider})`).toBeLessThan(RETRY_WITHIN_MS);
    }
    // No batch held its job past the timeout for long: a lock never outlived a hung call by much.
    expect(summary.max_lock_age_s).toBeLessThan((TIMEOUT_MS + 6_000) / 1000);
  });
});
