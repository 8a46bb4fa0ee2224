import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Scenario } from "../src/scenario.ts";
import { ok, status } from "../src/simulator/faults.ts";
import { addressesOf, emitNews, seedWorkload } from "../src/workload.ts";

const USERS = 30;
const MAX_ATTEMPTS = 2;

describe("a poison message: one recipient the provider always fails with a 5xx", () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await Scenario.open("poison-message", inject("templateUrl"));
  });
  afterAll(async () => scenario?.close());

  it("dead-letters it after max attempts, holds back none of its batch-mates, and leaves no job behind", async () => {
    const s = scenario;
    await seedWorkload(s.sql, USERS);
    const poisoned = new Set(Object.values(addressesOf(7)));
    for (const provider of ["ses", "twilio", "fcm"] as const) {
      s.sim.plan(provider, (entry) => (poisoned.has(entry.address ?? "") ? status(500) : ok(20)));
    }
    await s.ready(s.startWorker({ HERALD_MAX_ATTEMPTS: String(MAX_ATTEMPTS) }));
    const expected = await emitNews(s.sql, USERS);
    await s.drain(expected, 120_000);
    const summary = await s.finish(expected);

    expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected - 3, dead: 3 });
    // Exactly max attempts per poisoned message, no more: the engine's retries are bounded.
    for (const address of poisoned) expect(s.sim.ledger.filter((e) => e.address === address)).toHaveLength(MAX_ATTEMPTS);
    const { rows } = await s.sql.query(`SELECT u.external_id, n.reason FROM herald.notifications n JOIN herald.users u ON u.id = n.user_id WHERE status = 'dead'`);
    expect(rows.every((r) => r.external_id === "u-7")).toBe(true);
    // No job is left failing in the queue: the batch jobs completed, the poison is recorded on the rows.
    const jobs = await s.sql.query(`SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier LIKE 'send_%'`);
    expect(jobs.rows[0].n).toBe(0);
  });
});
