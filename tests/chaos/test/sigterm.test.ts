import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { acceptedButUnrecorded } from "../src/instrumentation.ts";
import { Scenario } from "../src/scenario.ts";
import { ok } from "../src/simulator/faults.ts";
import { emitNews, seedWorkload } from "../src/workload.ts";

const USERS = 40;

describe("SIGTERM with sends in flight", () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await Scenario.open("sigterm-in-flight", inject("templateUrl"));
  });
  afterAll(async () => scenario?.close());

  it("finishes and records every call it started, exits 0, leaves nothing locked; a new worker sends the rest once", async () => {
    const s = scenario;
    await seedWorkload(s.sql, USERS);
    for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, ok(400));
    const worker = s.startWorker();
    await s.ready(worker);
    let stopping: Promise<number | string | null> | null = null;
    let inFlightAtSignal = 0;
    s.sim.onRequest = (entry) => {
      if (stopping || entry.provider === "oauth" || entry.seq < 15) return;
      // Every answer is 400 ms away: the calls just made are still open when the signal lands.
      inFlightAtSignal = s.sim.ledger.filter((e) => e.provider !== "oauth" && Date.now() - e.at.getTime() < 400).length;
      stopping = worker.terminate();
    };
    const expected = await emitNews(s.sql, USERS);
    while (!stopping) await new Promise((r) => setTimeout(r, 50));

    expect(await stopping).toBe(0);
    expect(inFlightAtSignal).toBeGreaterThan(0);
    // Every call the provider accepted before the stop is recorded: nothing for a retry to repeat.
    expect(await acceptedButUnrecorded(s.sql, s.sim.ledger)).toBe(0);
    const locked = await s.sql.query(`SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE locked_at IS NOT NULL`);
    expect(locked.rows[0].n).toBe(0);
    const sentBeforeRestart = s.sim.ledger.filter((e) => e.accepted && e.provider !== "oauth").length;

    await s.ready(s.startWorker());
    await s.drain(expected);
    const summary = await s.finish(expected);
    expect(sentBeforeRestart).toBeLessThan(expected);
    expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, duplicate_budget: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected });
  });
});

describe("a second SIGTERM while the first waits for slow calls", () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await Scenario.open("sigterm-twice", inject("templateUrl"));
  });
  afterAll(async () => scenario?.close());

  it("exits at once with code 1; a new worker frees its jobs, loses nothing and repeats only what the exit exposed", async () => {
    const s = scenario;
    await seedWorkload(s.sql, USERS);
    // Every provider accepts at once and answers 20 s later: a graceful stop would wait for them.
    for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, ok(20_000));
    const worker = s.startWorker({ HERALD_SHUTDOWN_TIMEOUT_MS: "60000" });
    await s.ready(worker);
    let stopped: ReturnType<Scenario["terminateTwice"]> | null = null;
    s.sim.onRequest = (entry) => {
      if (stopped || entry.provider === "oauth" || entry.seq < 10) return;
      stopped = s.terminateTwice(worker, 1_500);
    };
    const expected = await emitNews(s.sql, USERS);
    while (!stopped) await new Promise((r) => setTimeout(r, 50));
    const { exit, secondSignalToExitMs, exposed } = await stopped;

    expect(exit).toBe(1);
    // Forced, not graceful: far sooner than the 20 s answers or the 60 s shutdown timeout.
    expect(secondSignalToExitMs).toBeLessThan(10_000);
    expect(exposed).toBeGreaterThan(0);

    for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, ok(20));
    // Its heartbeat goes silent (2 s here); the next worker frees the jobs it held.
    await new Promise((r) => setTimeout(r, 2500));
    await s.ready(s.startWorker());
    await s.drain(expected);
    const summary = await s.finish(expected);
    expect(summary).toMatchObject({ notifications: expected, lost: 0, status_regressions: 0, locked_jobs: 0, duplicate_budget: exposed });
    expect(summary.statuses).toEqual({ sent: expected });
    expect(summary.duplicates).toBeLessThanOrEqual(summary.duplicate_budget);
  });
});
