import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Scenario } from "../src/scenario.ts";
import { ok, status, type Fault } from "../src/simulator/faults.ts";
import type { SimulatedProvider } from "../src/simulator/provider-wire.ts";
import { emitNews, seedWorkload } from "../src/workload.ts";

const USERS = 20;
// Low, so an outage that spent attempts would dead-letter within the test.
const MAX_ATTEMPTS = 2;
/** Refusals the provider must have answered before the credentials come back: more than MAX_ATTEMPTS. */
const REFUSALS = 4;

/**
 * Each provider refusing Herald's credentials the way it does in production: SES answers 403
 * AccessDeniedException, Twilio 401 with error 20003, and Google's token endpoint 400
 * invalid_grant (a revoked service-account key) before FCM is ever called.
 */
const OUTAGES: Array<{ channel: "email" | "sms" | "push"; provider: "ses" | "twilio" | "fcm"; refuses: SimulatedProvider; answer: Fault }> = [
  { channel: "email", provider: "ses", refuses: "ses", answer: status(403) },
  { channel: "sms", provider: "twilio", refuses: "twilio", answer: status(401) },
  { channel: "push", provider: "fcm", refuses: "oauth", answer: status(400) },
];

describe.each(OUTAGES)("a credentials outage on $provider", ({ channel, provider, refuses, answer }) => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await Scenario.open(`credentials-outage-${provider}`, inject("templateUrl"));
  });
  afterAll(async () => scenario?.close());

  it("opens that provider's breaker only, spends no attempt, leaves the other channels sending, and delivers everything once the credentials work", async () => {
    const s = scenario;
    await seedWorkload(s.sql, USERS);
    s.sim.plan(refuses, answer);
    await s.ready(s.startWorker({ HERALD_MAX_ATTEMPTS: String(MAX_ATTEMPTS) }));
    const expected = await emitNews(s.sql, USERS);

    // The other two channels go out while this one is refused.
    await until(async () => {
      const { rows } = await s.sql.query<{ sent: number }>(`SELECT count(*)::int AS sent FROM herald.notifications WHERE channel <> $1 AND status = 'sent'`, [channel]);
      const refusals = s.sim.ledger.filter((e) => e.provider === refuses && e.fault.kind === "status").length;
      return rows[0]!.sent === 2 * USERS && refusals >= REFUSALS;
    }, `the other channels sent and ${REFUSALS} refusals from ${refuses}`);

    // Read between two trial calls: a message whose trial is in flight has its attempt counted
    // until the refusal is recorded and refunds it.
    let during: Array<{ status: string; reason: string | null; attempts: number; dispatch_state: string }> = [];
    await until(async () => {
      ({ rows: during } = await s.sql.query(`SELECT status, reason, attempt_count AS attempts, dispatch_state FROM herald.notifications WHERE channel = $1`, [channel]));
      return during.every((r) => r.dispatch_state !== "in_flight");
    }, `no ${channel} trial in flight`);
    expect(during).toHaveLength(USERS);
    for (const row of during) {
      expect(row.status, JSON.stringify(row)).not.toBe("sent");
      expect(row.status, JSON.stringify(row)).not.toBe("dead");
      expect(row.attempts, JSON.stringify(row)).toBe(0);
    }
    // Recognised as a credentials outage (a row's reason moves on to breaker_open while it waits).
    const recognised = await s.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM herald.notification_events e JOIN herald.notifications n ON n.id = e.notification_id
        WHERE n.channel = $1 AND e.type = 'deferred' AND e.detail->>'reason' = 'credentials_outage'`,
      [channel],
    );
    expect(recognised.rows[0]!.n).toBeGreaterThan(0);
    const breakers = await s.sql.query<{ breaker_key: string; state: string; reason: string | null }>(`SELECT breaker_key, state, reason FROM herald.provider_breakers`);
    const tripped = breakers.rows.filter((b) => b.state !== "closed");
    expect(tripped.length, JSON.stringify(breakers.rows)).toBeGreaterThan(0);
    // Breakers are keyed "<provider>-<channel>": only this provider's opened.
    for (const b of tripped) expect(b.breaker_key.startsWith(`${provider}-`), JSON.stringify(breakers.rows)).toBe(true);

    s.sim.plan(refuses, ok());
    await s.drain(expected, 120_000);
    const summary = await s.finish(expected);

    expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, duplicate_budget: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected });
    // Refused more often than the attempt limit, yet each message spent exactly one attempt: the one that worked.
    const after = await s.sql.query<{ attempts: number }>(`SELECT attempt_count AS attempts FROM herald.notifications WHERE channel = $1`, [channel]);
    expect(after.rows.map((r) => r.attempts)).toEqual(Array(USERS).fill(1));
  });
});

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
