import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Scenario } from "../src/scenario.ts";
import { ok, status, type FaultPlan } from "../src/simulator/faults.ts";
import { addressesOf, CHANNELS_PER_EVENT, emitNews, seedWorkload } from "../src/workload.ts";

/** Users 1–10 go out while only the fast worker runs, 11–20 while only the slow one does. */
const USERS_PER_WORKER = 10;
/** Users 21–25 get notifications due SCHEDULED_IN_MS after they are written, before any worker starts. */
const SCHEDULED_USERS = 5;
const SKEW_MS = 10 * 60_000;
/** HERALD_RETRY_FLOOR_MS: a refusal without Retry-After is retried this long after. */
const FLOOR_MS = 4_000;
/** What half the refusals ask for. */
const RETRY_AFTER_S = 6;
const SCHEDULED_IN_MS = 10_000;
/**
 * A retry or a scheduled send this much after its instant is still on time: a tenth of the skew,
 * so a worker scheduling by its own slow clock (600 s late) fails it, while a loaded machine's
 * slow worker start (CI measured 15.7 s once) does not.
 */
const LATE_BY_MS = SKEW_MS / 10;

const PRELOAD = fileURLToPath(new URL("../src/skewed-clock.ts", import.meta.url));
const skewedBy = (ms: number) => ({ NODE_OPTIONS: `--import=${PRELOAD}`, HERALD_CHAOS_CLOCK_SKEW_MS: String(ms), HERALD_RETRY_FLOOR_MS: String(FLOOR_MS) });

// Each address's first request is refused with 503, every other user's with a Retry-After.
function refuseFirst(): FaultPlan {
  const seen = new Set<string>();
  return (entry) => {
    const address = entry.address ?? "";
    if (seen.has(address)) return ok(20);
    seen.add(address);
    return Number(address.replace(/\D/g, "").slice(-2)) % 2 ? status(503, { "retry-after": String(RETRY_AFTER_S) }) : status(503);
  };
}

describe("two workers whose clocks are 10 minutes fast and 10 minutes slow", () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await Scenario.open("clock-skew", inject("templateUrl"));
  });
  afterAll(async () => scenario?.close());

  it("schedules retries and future sends by the database's clock: none early, none late", async () => {
    const s = scenario;
    await seedWorkload(s.sql, 2 * USERS_PER_WORKER + SCHEDULED_USERS);
    for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, refuseFirst());
    // Notifications due in 10 s, written before any worker runs: whichever sends them must wait.
    let expected = await emitNews(s.sql, SCHEDULED_USERS, "scheduled", 2 * USERS_PER_WORKER + 1);
    const { rows: scheduled } = await s.sql.query<{ due: Date }>(
      `UPDATE herald.notifications SET next_attempt_at = now() + make_interval(secs => $1::float8 / 1000) RETURNING next_attempt_at AS due`,
      [SCHEDULED_IN_MS],
    );
    const scheduledFor = scheduled[0]!.due.getTime();

    // The fast worker alone decides the first users' retries…
    const fast = s.startWorker(skewedBy(SKEW_MS));
    await s.ready(fast);
    expected += await emitNews(s.sql, USERS_PER_WORKER, "fast", 1);
    await retriesScheduled(s, USERS_PER_WORKER * CHANNELS_PER_EVENT);
    // …and the slow one the others'.
    await s.ready(s.startWorker(skewedBy(-SKEW_MS)));
    expect(await fast.terminate()).toBe(0);
    expected += await emitNews(s.sql, USERS_PER_WORKER, "slow", USERS_PER_WORKER + 1);
    await s.drain(expected, 90_000);
    const summary = await s.finish(expected);

    expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, duplicate_budget: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected });
    const ledger = s.sim.ledger.filter((e) => e.provider !== "oauth");
    // Every refusal retried no sooner than it asked (or the floor), and not much later.
    const refusals = ledger.filter((e) => e.fault.kind === "status");
    expect(refusals).toHaveLength(expected);
    for (const refusal of refusals) {
      const askedFor = refusal.fault.kind === "status" && refusal.fault.headers?.["retry-after"] !== undefined;
      const waitMs = askedFor ? RETRY_AFTER_S * 1000 : FLOOR_MS;
      // The pump runs a job at the start of its second: a backoff may come up to 1 s early; a
      // Retry-After is rounded up to the second, so never.
      const earlyMs = askedFor ? 50 : 1000;
      const retry = ledger.find((e) => e.seq > refusal.seq && e.address === refusal.address)!;
      const afterMs = retry.at.getTime() - refusal.at.getTime();
      expect(afterMs, `retry of ${refusal.address}`).toBeGreaterThanOrEqual(waitMs - earlyMs);
      expect(afterMs, `retry of ${refusal.address}`).toBeLessThan(waitMs + LATE_BY_MS);
    }
    // The notifications due in 10 s: first called at their instant, not before, not much after.
    for (let n = 2 * USERS_PER_WORKER + 1; n <= 2 * USERS_PER_WORKER + SCHEDULED_USERS; n++) {
      for (const address of Object.values(addressesOf(n))) {
        const first = ledger.find((e) => e.address === address)!;
        expect(first.at.getTime() - scheduledFor, `first call to ${address}`).toBeGreaterThanOrEqual(-50);
        expect(first.at.getTime() - scheduledFor, `first call to ${address}`).toBeLessThan(LATE_BY_MS);
      }
    }
  });
});

/** Waits until `count` retries have been decided and written. */
async function retriesScheduled(s: Scenario, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows } = await s.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM herald.notification_events WHERE type = 'retry_scheduled'`);
    if (rows[0]!.n >= count) return;
    if (Date.now() > deadline) throw new Error(`${rows[0]!.n} of ${count} retries scheduled after 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
