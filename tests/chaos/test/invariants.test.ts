import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { optOutNow, storeLedger, suppressNow } from "../src/instrumentation.ts";
import { checkInvariants } from "../src/invariants.ts";
import { Scenario } from "../src/scenario.ts";
import { ok, acceptThenDrop, status } from "../src/simulator/faults.ts";
import type { LedgerEntry } from "../src/simulator/ledger.ts";
import { addressesOf, emitNews, seedWorkload } from "../src/workload.ts";

// The checker itself: every invariant must see the violation it exists for. No worker runs;
// the rows are written as a faulty engine would have written them.
describe("the invariants catch what they promise to", () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await Scenario.open("invariants-self-test", inject("templateUrl"));
  });
  afterAll(async () => scenario?.close());

  it("counts loss, duplicates, regressions, sends after an opt-out and locked jobs", async () => {
    const sql = scenario.sql;
    await seedWorkload(sql, 4);
    const expected = await emitNews(sql, 4);
    const ids = async (channel: string) =>
      (await sql.query<{ id: string; ext: string }>(`SELECT n.id, u.external_id AS ext FROM herald.notifications n JOIN herald.users u ON u.id = n.user_id WHERE channel = $1 ORDER BY u.id`, [channel])).rows;
    const email = await ids("email");
    const sms = await ids("sms");

    // Settle everything as sent, then break things on purpose.
    await sql.query(`UPDATE herald.notifications SET status = 'sent', dispatch_state = 'done', address = CASE channel
      WHEN 'sms' THEN (SELECT phone FROM herald.users u WHERE u.id = user_id) WHEN 'email' THEN (SELECT email FROM herald.users u WHERE u.id = user_id) ELSE address END`);
    await sql.query(`UPDATE herald.notifications SET status = 'pending' WHERE id = $1`, [email[3]!.id]); // a regression, and unsettled
    await suppressNow(sql, "sms", addressesOf(2).sms);
    await optOutNow(sql, "u-3", "news", "email");
    const at = (offsetMs: number) => new Date(Date.now() + offsetMs);
    const entry = (seq: number, provider: LedgerEntry["provider"], notificationId: string | null, address: string, fault = ok(), when = at(-60_000)): LedgerEntry => ({
      seq, at: when, provider, notificationId, address, bodyHash: `h${seq}`, fault, accepted: fault.kind === "ok" || fault.kind === "drop",
    });
    const ledger: LedgerEntry[] = [
      entry(1, "ses", email[0]!.id, addressesOf(1).email),
      entry(2, "ses", email[0]!.id, addressesOf(1).email, acceptThenDrop()), // a duplicate
      entry(3, "ses", email[1]!.id, addressesOf(2).email, status(429)), // refused: no delivery, no duplicate
      entry(4, "ses", email[1]!.id, addressesOf(2).email),
      entry(5, "ses", email[2]!.id, addressesOf(3).email, ok(), at(5_000)), // after u-3's opt-out
      entry(6, "twilio", null, addressesOf(1).sms),
      entry(7, "twilio", null, addressesOf(2).sms, ok(), at(5_000)), // after the suppression
      entry(8, "twilio", null, addressesOf(3).sms),
      entry(9, "twilio", null, addressesOf(4).sms),
      entry(10, "oauth", null, ""),
    ];
    await storeLedger(sql, ledger);
    await sql.query(`SELECT graphile_worker.add_job('send_sms', '{"ids": ["1"]}')`);
    await sql.query(`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'gone'`);

    const summary = await checkInvariants(sql, { name: "self-test", expected: expected + 1, duplicateBudget: 1, maxLockAgeS: 0 });
    expect(sms.length).toBe(4);
    expect(summary).toMatchObject({
      expected: expected + 1,
      notifications: expected,
      // one row missing, one unsettled, and the four push rows "sent" that no provider accepted
      lost: 1 + 1 + 4,
      duplicates: 1,
      status_regressions: 1,
      sends_after_opt_out: 2,
      locked_jobs: 1,
    });
  });
});
