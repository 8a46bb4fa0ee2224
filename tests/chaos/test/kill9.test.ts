import { afterEach, describe, expect, inject, it } from "vitest";
import { acceptedButUnrecorded } from "../src/instrumentation.ts";
import { Scenario } from "../src/scenario.ts";
import { hang, ok, type Fault, type FaultPlan } from "../src/simulator/faults.ts";
import type { SimulatedProvider } from "../src/simulator/provider-wire.ts";
import { addressesOf, emitNews, seedWorkload } from "../src/workload.ts";

const USERS = 40;
// Long enough that the killed worker has other calls in flight too.
const LATENCY = ok(150);

describe("kill -9 of a worker", () => {
  let scenario: Scenario | undefined;
  afterEach(async () => scenario?.close());

  async function run(name: string, killOn: { provider: SimulatedProvider; plan: FaultPlan; when: (fault: Fault) => boolean }, env: Record<string, string> = {}) {
    scenario = await Scenario.open(name, inject("templateUrl"));
    const s = scenario;
    await seedWorkload(s.sql, USERS);
    for (const provider of ["ses", "twilio", "fcm", "oauth"] as const) s.sim.plan(provider, provider === killOn.provider ? killOn.plan : provider === "oauth" ? ok() : LATENCY);
    const first = s.startWorker(env);
    await s.ready(first);
    let exposed = -1;
    let exposedOnChannel = -1;
    let victim: string | null = null;
    s.sim.onRequest = async (entry) => {
      if (exposed >= 0 || entry.provider !== killOn.provider || !killOn.when(entry.fault)) return;
      victim = entry.address;
      exposed = 0;
      // Before the simulator answers: the worker dies with this call (and its batch-mates) open.
      exposed = await s.kill9(first);
      exposedOnChannel = await acceptedButUnrecorded(s.sql, s.sim.ledger.filter((e) => e.provider === killOn.provider));
    };
    const expected = await emitNews(s.sql, USERS);
    while (exposed < 0 || first.child.exitCode === null && first.child.signalCode === null) await new Promise((r) => setTimeout(r, 100));
    // The dead worker's heartbeat goes silent (2 s here); the next worker frees its jobs at start.
    await new Promise((r) => setTimeout(r, 2500));
    await s.ready(s.startWorker());
    await s.drain(expected);
    const summary = await s.finish(expected);
    return { summary, exposed, exposedOnChannel, victim: victim as string | null };
  }

  it("before the provider call (its push batch claimed, FCM not yet called): those sends go out once, nothing lost", async () => {
    // FCM's first call waits for an OAuth token: killed on that exchange, the worker holds a
    // claimed push batch none of whose messages has reached FCM.
    const { summary } = await run("kill9-before-call", { provider: "oauth", plan: () => ok(), when: () => true });
    expect(summary).toMatchObject({ notifications: summary.expected, lost: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: summary.expected });
    expect(summary.duplicates).toBeLessThanOrEqual(summary.duplicate_budget);
    const ledger = scenario!.sim.ledger;
    for (let n = 1; n <= USERS; n++) {
      expect(ledger.filter((e) => e.provider === "fcm" && e.address === addressesOf(n).push && e.accepted), `push to user ${n}`).toHaveLength(1);
    }
  });

  it("during the provider call (before the provider accepted): nothing lost, duplicates within what the kill exposed", async () => {
    // The tenth SMS hangs at the provider, unaccepted, and the worker is killed while it waits.
    const { summary, victim } = await run("kill9-during-call", {
      provider: "twilio",
      plan: (_e, index) => (index === 9 ? hang() : LATENCY),
      when: (fault) => fault.kind === "hang",
    });
    expect(summary).toMatchObject({ notifications: summary.expected, lost: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: summary.expected });
    expect(summary.duplicates).toBeLessThanOrEqual(summary.duplicate_budget);
    // The hung message was sent afterwards, once.
    const accepted = scenario!.sim.ledger.filter((e) => e.address === victim && e.accepted);
    expect(accepted).toHaveLength(1);
  });

  it("after the provider accepted, before Herald recorded it: the exposed sends are the only duplicates", async () => {
    // One SMS job at a time, killed on its 30th call: with results recorded once per batch, the
    // 20-odd SMS Twilio had already accepted in it would have been sent again.
    const { summary, exposed, exposedOnChannel, victim } = await run(
      "kill9-after-accept",
      { provider: "twilio", plan: (_e, index) => (index === 29 ? ok() : LATENCY), when: (fault) => fault.kind === "ok" && !fault.delayMs },
      { HERALD_SMS_CONCURRENCY: "1" },
    );
    // The killed call itself was accepted and never recorded: the budget is at least that one.
    // On its channel it is about the 8 calls one Twilio batch has in flight, plus what landed
    // during the group commit being written; far from the 29 accepted before it in the batch.
    expect(exposedOnChannel).toBeGreaterThanOrEqual(1);
    expect(exposedOnChannel).toBeLessThanOrEqual(20);
    expect(exposed).toBeGreaterThanOrEqual(exposedOnChannel);
    expect(summary).toMatchObject({ notifications: summary.expected, lost: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: summary.expected });
    expect(summary.duplicates).toBeLessThanOrEqual(summary.duplicate_budget);
    expect(summary.duplicate_budget).toBe(exposed);
    expect(scenario!.sim.ledger.filter((e) => e.address === victim && e.accepted).length).toBeLessThanOrEqual(2);
  });
});
