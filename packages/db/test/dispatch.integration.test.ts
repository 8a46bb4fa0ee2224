import { describe, expect, it } from "vitest";
import { claimBatch } from "../src/dispatch/claim-batch.ts";
import { listDeadLetters, replayDeadLetters } from "../src/dispatch/dead-letters.ts";
import { applyDispatchDecisions } from "../src/dispatch/dispatch-decisions.ts";
import { pumpOnce } from "../src/dispatch/pump.ts";
import { applyStatusEvents } from "../src/dispatch/status-events.ts";
import { configureBucket, takeTokens } from "../src/providers/token-buckets.ts";
import { ingestEvents } from "../src/ingest/ingest-events.ts";
import { routeType } from "./support/fixtures.ts";
import { useTestDatabase } from "./support/test-database.ts";

const PUMP = { batchSize: 100, maxQueuedBatches: 4, lookaheadMs: 5000 };

describe("the outbox pump", () => {
  const test = useTestDatabase();

  it("turns due rows into batch jobs per channel, critical first, and marks them in the same transaction", async () => {
    const sql = test.db.pool;
    await routeType(sql, "bulk.news", [{ channel: "sms" }]);
    await routeType(sql, "otp.sms", [{ channel: "sms", lane: "critical" }]);
    await ingestEvents(sql, Array.from({ length: 250 }, (_, i) => ({ eventId: `news-${i}`, type: "bulk.news", userId: `u-${i}` })));
    await ingestEvents(sql, [{ eventId: "otp-1", type: "otp.sms", userId: "u-otp" }]);

    const result = await pumpOnce(sql, PUMP);
    expect(result).toEqual([
      { channel: "sms", lane: "critical", notifications: 1, jobs: 1 },
      { channel: "sms", lane: "bulk", notifications: 250, jobs: 3 },
    ]);
    const jobs = await sql.query(
      `SELECT t.identifier AS task_identifier, j.priority, json_array_length(j.payload->'ids') AS n
         FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        ORDER BY j.priority, j.id`,
    );
    expect(jobs.rows).toEqual([
      { task_identifier: "send_sms", priority: -10, n: 1 },
      { task_identifier: "send_sms", priority: 0, n: 100 },
      { task_identifier: "send_sms", priority: 0, n: 100 },
      { task_identifier: "send_sms", priority: 0, n: 50 },
    ]);
    const unmarked = await sql.query("SELECT count(*)::int AS n FROM herald.notifications WHERE job_queued_at IS NULL");
    expect(unmarked.rows[0].n).toBe(0);
    expect(await pumpOnce(sql, PUMP)).toEqual([]);
  });

  it("holds a channel back once it has enough unstarted jobs", async () => {
    const sql = test.db.pool;
    await sql.query("DELETE FROM graphile_worker._private_jobs");
    await sql.query("UPDATE herald.notifications SET job_queued_at = NULL");
    const result = await pumpOnce(sql, { ...PUMP, batchSize: 10, maxQueuedBatches: 3 });
    expect(result).toEqual([
      { channel: "sms", lane: "critical", notifications: 1, jobs: 1 },
      { channel: "sms", lane: "bulk", notifications: 30, jobs: 3 },
    ]);
    expect(await pumpOnce(sql, { ...PUMP, batchSize: 10, maxQueuedBatches: 3 })).toEqual([]);
  });

  it("adds only full bulk jobs while the lane has a job due and unstarted, and the rest once it catches up", async () => {
    const sql = test.db.pool;
    const options = { ...PUMP, batchSize: 10, maxQueuedBatches: 4 };
    await sql.query("DELETE FROM graphile_worker._private_jobs");
    await sql.query("UPDATE herald.notifications SET job_queued_at = now(), dispatch_state = 'done'");
    await routeType(sql, "steady.sms", [{ channel: "sms" }]);
    await routeType(sql, "steady.otp", [{ channel: "sms", lane: "critical" }]);
    const events = (prefix: string, type: string, n: number) =>
      ingestEvents(sql, Array.from({ length: n }, (_, i) => ({ eventId: `${prefix}-${i}`, type, userId: `${prefix}-${i}` })));
    await events("first", "steady.sms", 3);
    // Keeping up: three rows make a job of three.
    expect(await pumpOnce(sql, options)).toEqual([{ channel: "sms", lane: "bulk", notifications: 3, jobs: 1 }]);

    // That job has not started when 25 more bulk rows and 2 critical ones come due.
    await events("second", "steady.sms", 25);
    await events("otp", "steady.otp", 2);
    expect(await pumpOnce(sql, options)).toEqual([
      { channel: "sms", lane: "critical", notifications: 2, jobs: 1 },
      { channel: "sms", lane: "bulk", notifications: 20, jobs: 2 },
    ]);
    expect(await pumpOnce(sql, options)).toEqual([]);

    // Neither a job that is not due yet (a retry's) nor one that used up its attempts (it never
    // runs again) is a sign of being behind.
    await sql.query("UPDATE graphile_worker._private_jobs SET run_at = now() + interval '3 seconds'");
    await sql.query("UPDATE graphile_worker._private_jobs SET run_at = now(), attempts = max_attempts WHERE id = (SELECT min(id) FROM graphile_worker._private_jobs)");
    expect(await pumpOnce(sql, options)).toEqual([{ channel: "sms", lane: "bulk", notifications: 5, jobs: 1 }]);
    const { rows } = await sql.query(
      "SELECT priority, json_array_length(payload->'ids') AS n FROM graphile_worker._private_jobs ORDER BY id",
    );
    expect(rows).toEqual([
      { priority: 0, n: 3 },
      { priority: -10, n: 2 },
      { priority: 0, n: 10 },
      { priority: 0, n: 10 },
      { priority: 0, n: 5 },
    ]);
  });

  it("schedules a future row's job at its next_attempt_at, never at the start of its second, and leaves rows beyond the look-ahead alone", async () => {
    const sql = test.db.pool;
    await sql.query("DELETE FROM graphile_worker._private_jobs");
    await sql.query("UPDATE herald.notifications SET job_queued_at = now(), dispatch_state = 'done'");
    await sql.query(
      `UPDATE herald.notifications SET job_queued_at = NULL, dispatch_state = 'retry_wait',
              next_attempt_at = date_trunc('second', now()) + interval '3.4 seconds'
        WHERE id = (SELECT min(id) FROM herald.notifications)`,
    );
    await sql.query(
      `UPDATE herald.notifications SET job_queued_at = NULL, dispatch_state = 'deferred', next_attempt_at = now() + interval '1 hour'
        WHERE id = (SELECT max(id) FROM herald.notifications)`,
    );
    expect(await pumpOnce(sql, PUMP)).toEqual([{ channel: "sms", lane: "bulk", notifications: 1, jobs: 1 }]);
    const { rows } = await sql.query(
      `SELECT j.run_at = n.next_attempt_at AS agrees FROM graphile_worker._private_jobs j
         JOIN herald.notifications n ON n.id = (j.payload->'ids'->>0)::bigint`,
    );
    expect(rows).toEqual([{ agrees: true }]);
  });
});

describe("dispatch decisions, status events and dead letters", () => {
  const test = useTestDatabase();

  async function freshNotification(eventId: string): Promise<string> {
    await routeType(test.db.pool, "one.email", [{ channel: "email" }]);
    const [r] = await ingestEvents(test.db.pool, [{ eventId, type: "one.email", userId: `user-${eventId}` }]);
    await test.db.pool.query("UPDATE herald.users SET email = $1 WHERE external_id = $2", [`${eventId}@example.com`, `user-${eventId}`]);
    return r!.notifications[0]!.id;
  }

  async function row(id: string) {
    const { rows } = await test.db.pool.query(
      `SELECT status, reason, dispatch_state, attempt_count, provider_message_id, job_queued_at, next_attempt_at, sent_at, delivered_at,
              outage_since, (SELECT array_agg(type ORDER BY e.id) FROM herald.notification_events e WHERE e.notification_id = n.id) AS events
         FROM herald.notifications n WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  it("takes a job's rows once: another job cannot take rows in flight, a re-run of the same job can", async () => {
    const id = await freshNotification("claim-1");
    const first = await claimBatch(test.db.pool, [id], "101");
    expect(first.map((n) => [n.id, n.user?.email])).toEqual([[id, "claim-1@example.com"]]);
    expect(await claimBatch(test.db.pool, [id], "102")).toEqual([]);
    expect((await claimBatch(test.db.pool, [id], "101")).map((n) => n.id)).toEqual([id]);
  });

  it("counts the attempt before the call, then records sent; a late webhook never moves status back", async () => {
    const id = await freshNotification("sent-1");
    await claimBatch(test.db.pool, [id], "1");
    await applyDispatchDecisions(test.db.pool, [{ id, kind: "attempt", provider: "sandbox", address: "a@example.com", rendered: { body: "x" } }]);
    expect(await row(id)).toMatchObject({ attempt_count: 1, dispatch_state: "in_flight", status: "pending" });
    await applyDispatchDecisions(test.db.pool, [{ id, kind: "sent", provider: "sandbox", providerMessageId: "pm-1", latencyMs: 12 }]);
    expect(await row(id)).toMatchObject({ status: "sent", dispatch_state: "done", provider_message_id: "pm-1", job_queued_at: null });

    await applyStatusEvents(test.db.pool, [{ providerMessageId: "pm-1", kind: "delivered", at: new Date("2026-11-30T10:00:00Z") }]);
    const orphans = await applyStatusEvents(test.db.pool, [
      { providerMessageId: "pm-1", kind: "delivered", at: new Date("2026-11-30T11:00:00Z") },
      { providerMessageId: "pm-unknown", kind: "delivered", at: new Date() },
    ]);
    expect(orphans).toEqual(["pm-unknown"]);
    const after = await row(id);
    expect(after.status).toBe("delivered");
    expect(after.delivered_at.toISOString()).toBe("2026-11-30T10:00:00.000Z");
    expect(after.events).toEqual(["created", "attempt", "sent", "delivered", "delivered"]);
  });

  it("applies a bounce's suppression even when the status cannot move", async () => {
    const id = await freshNotification("bounce-1");
    await claimBatch(test.db.pool, [id], "1");
    await applyDispatchDecisions(test.db.pool, [{ id, kind: "attempt", provider: "sandbox", address: "bounce-1@example.com", rendered: {} }]);
    await applyDispatchDecisions(test.db.pool, [{ id, kind: "sent", provider: "sandbox", providerMessageId: "pm-b", latencyMs: 1 }]);
    await applyStatusEvents(test.db.pool, [
      { providerMessageId: "pm-b", kind: "delivered", at: new Date() },
      { providerMessageId: "pm-b", kind: "bounced", at: new Date(), suppress: "hard_bounce", source: "ses" },
    ]);
    expect((await row(id)).status).toBe("delivered");
    const { rows } = await test.db.pool.query("SELECT reason, source FROM herald.suppressions WHERE address = 'bounce-1@example.com'");
    expect(rows).toEqual([{ reason: "hard_bounce", source: "ses" }]);
  });

  it("ends two outcomes of one rank on the later by the provider's time, whichever arrives first; without that time the first stays", async () => {
    const sent = async (eventId: string, messageId: string) => {
      const id = await freshNotification(eventId);
      await claimBatch(test.db.pool, [id], "1");
      await applyDispatchDecisions(test.db.pool, [{ id, kind: "attempt", provider: "sandbox", address: `${eventId}@example.com`, rendered: {} }]);
      await applyDispatchDecisions(test.db.pool, [{ id, kind: "sent", provider: "sandbox", providerMessageId: messageId, latencyMs: 1 }]);
      return id;
    };
    // SES delivered the email, then the receiving server bounced it: an asynchronous bounce.
    const delivery = (pm: string) => ({ providerMessageId: pm, kind: "delivered" as const, at: new Date("2026-11-30T10:00:00Z"), providerTime: true });
    const bounce = (pm: string) => ({ providerMessageId: pm, kind: "bounced" as const, at: new Date("2026-11-30T10:00:05Z"), providerTime: true });
    const inOrder = await sent("async-bounce-1", "pm-ab-1");
    const reversed = await sent("async-bounce-2", "pm-ab-2");
    for (const event of [delivery("pm-ab-1"), bounce("pm-ab-1"), bounce("pm-ab-2"), delivery("pm-ab-2")]) await applyStatusEvents(test.db.pool, [event]);
    expect((await row(inOrder)).status).toBe("bounced");
    expect((await row(reversed)).status).toBe("bounced");
    expect((await row(inOrder)).delivered_at).toEqual((await row(reversed)).delivered_at);

    // At the same instant the failure wins, in either order; a twin report changes nothing.
    const tieA = await sent("tie-1", "pm-tie-1");
    const tieB = await sent("tie-2", "pm-tie-2");
    const same = new Date("2026-11-30T10:00:00Z");
    for (const [pm, kind] of [["pm-tie-1", "delivered"], ["pm-tie-1", "failed"], ["pm-tie-2", "failed"], ["pm-tie-2", "delivered"]] as const) {
      await applyStatusEvents(test.db.pool, [{ providerMessageId: pm, kind, at: same, providerTime: true }]);
    }
    expect([(await row(tieA)).status, (await row(tieB)).status]).toEqual(["failed", "failed"]);

    // Twilio's callbacks carry no time of their own (\`at\` is when Herald applied them): the first outcome stays.
    const untimed = await sent("untimed-1", "pm-untimed-1");
    await applyStatusEvents(test.db.pool, [{ providerMessageId: "pm-untimed-1", kind: "delivered", at: new Date("2026-11-30T10:00:00Z") }]);
    await applyStatusEvents(test.db.pool, [{ providerMessageId: "pm-untimed-1", kind: "failed", at: new Date("2026-11-30T10:00:05Z") }]);
    expect((await row(untimed)).status).toBe("delivered");
  });

  it("schedules a retry without settling, refunds an outage's attempt, and dead-letters with the reason", async () => {
    const id = await freshNotification("retry-1");
    await claimBatch(test.db.pool, [id], "1");
    await applyDispatchDecisions(test.db.pool, [{ id, kind: "attempt", provider: "p", address: "x", rendered: {} }]);
    const until = new Date(Date.now() + 30_000);
    await applyDispatchDecisions(test.db.pool, [{ id, kind: "retry", provider: "p", until, reason: "http_503", latencyMs: 5 }]);
    expect(await row(id)).toMatchObject({ status: "pending", dispatch_state: "retry_wait", attempt_count: 1, job_queued_at: null });
    expect((await row(id)).next_attempt_at.toISOString()).toBe(until.toISOString());

    await claimBatch(test.db.pool, [id], "2");
    await applyDispatchDecisions(test.db.pool, [{ id, kind: "attempt", provider: "p", address: "x", rendered: {} }]);
    await applyDispatchDecisions(test.db.pool, [{ id, kind: "outage", provider: "p", until, reason: "credentials_outage", latencyMs: 5 }]);
    const deferred = await row(id);
    expect(deferred).toMatchObject({ dispatch_state: "deferred", attempt_count: 1, reason: "credentials_outage" });
    expect(deferred.outage_since).not.toBeNull();

    await claimBatch(test.db.pool, [id], "3");
    await applyDispatchDecisions(test.db.pool, [{ id, kind: "dead", reason: "provider_rejected:400", provider: "p", latencyMs: 3 }]);
    expect(await row(id)).toMatchObject({ status: "dead", dispatch_state: "done", reason: "provider_rejected:400" });
  });

  it("lists dead letters by filter and replays them as pending with fresh attempts", async () => {
    const a = await freshNotification("dead-a");
    const b = await freshNotification("dead-b");
    for (const [id, reason] of [[a, "max_attempts"], [b, "provider_rejected:21211"]] as const) {
      await claimBatch(test.db.pool, [id], "9");
      await applyDispatchDecisions(test.db.pool, [{ id, kind: "dead", reason }]);
    }
    const rejected = await listDeadLetters(test.db.pool, { reason: "provider_rejected:" }, { limit: 10 });
    expect(rejected.items.map((d) => d.id)).toContain(b);
    expect(rejected.items.map((d) => d.id)).not.toContain(a);
    const page1 = await listDeadLetters(test.db.pool, {}, { limit: 1 });
    const page2 = await listDeadLetters(test.db.pool, {}, { limit: 1, cursor: page1.nextCursor });
    expect(page1.items[0]!.id).not.toBe(page2.items[0]!.id);

    expect(await replayDeadLetters(test.db.pool, { ids: [a] }, "ops@example.com")).toEqual([a]);
    const replayed = await row(a);
    expect(replayed).toMatchObject({ status: "pending", dispatch_state: "queued", attempt_count: 0, reason: null });
    expect(replayed.events.at(-1)).toBe("replayed");
    expect(await replayDeadLetters(test.db.pool, { filter: { channel: "email", reason: "provider_rejected:" } }, "ops")).toContain(b);
  });
});

describe("the provider token bucket", () => {
  const test = useTestDatabase();

  it("grants what the rate allows, per batch, and says how long to wait for the rest", async () => {
    await configureBucket(test.db.pool, "sms-primary", 20, 20);
    expect(await takeTokens(test.db.pool, "sms-primary", 15)).toEqual({ granted: 15, waitMs: 0, paced: true });
    const second = await takeTokens(test.db.pool, "sms-primary", 15);
    expect(second.granted).toBeGreaterThanOrEqual(5);
    expect(second.granted).toBeLessThan(15);
    expect(second.waitMs).toBeGreaterThan(0);
    expect(second.waitMs).toBeLessThanOrEqual(50);
    expect(await takeTokens(test.db.pool, "no-bucket", 7)).toEqual({ granted: 7, waitMs: 0, paced: false });
  });

  it("takes back unused tokens in the same update as the take, filling the bucket no higher than its burst", async () => {
    await configureBucket(test.db.pool, "email-renew", 1, 10);
    expect((await takeTokens(test.db.pool, "email-renew", 10)).granted).toBe(10);
    // Six stale tokens handed back and taken again: what the bucket holds is unchanged.
    expect((await takeTokens(test.db.pool, "email-renew", 6, 6)).granted).toBe(6);
    expect((await takeTokens(test.db.pool, "email-renew", 10)).granted).toBe(0);
    // More handed back than the bucket holds: it fills to its burst and no further.
    expect((await takeTokens(test.db.pool, "email-renew", 0, 25)).granted).toBe(0);
    expect((await takeTokens(test.db.pool, "email-renew", 12)).granted).toBe(10);
  });
});
