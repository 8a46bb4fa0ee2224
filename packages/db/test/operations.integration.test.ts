import { describe, expect, it } from "vitest";
import { measureAlerts, syncAlerts, listAlerts, listOpenAlerts } from "../src/operations/alerts.ts";
import { listBacklog } from "../src/operations/backlog.ts";
import { listOrphanWebhookPage } from "../src/operations/orphan-webhooks.ts";
import { countRecentAttempts } from "../src/operations/recent-attempts.ts";
import { useTestDatabase } from "./support/test-database.ts";

describe("operations queries on hand-built rows", () => {
  const test = useTestDatabase();
  let counter = 0;

  /** One notification row in the given state; times are offsets from now in seconds. */
  async function notification(fields: {
    channel: string;
    lane?: string;
    status?: string;
    dispatchState: string;
    dueIn?: number;
    jobQueued?: boolean;
  }): Promise<string> {
    counter += 1;
    const { rows } = await test.db.pool.query(
      `INSERT INTO herald.notifications (dedup_key, type, channel, category, lane, status, dispatch_state, content, next_attempt_at, job_queued_at)
       VALUES ($1, 't', $2, 'c', $3, $4, $5, '{}', now() + make_interval(secs => $6), CASE WHEN $7 THEN now() END) RETURNING id::text`,
      [`n-${counter}`, fields.channel, fields.lane ?? "bulk", fields.status ?? "pending", fields.dispatchState, fields.dueIn ?? 0, fields.jobQueued ?? false],
    );
    return rows[0].id;
  }

  it("counts the backlog per channel and lane: due rows waiting, rows holding a job, the oldest due; never later or settled rows", async () => {
    await notification({ channel: "email", dispatchState: "queued", dueIn: -600 });
    await notification({ channel: "email", dispatchState: "retry_wait", dueIn: -60 });
    await notification({ channel: "email", dispatchState: "deferred", dueIn: 3600 }); // quiet hours: later, not backlog
    await notification({ channel: "email", dispatchState: "in_flight", dueIn: -900, jobQueued: true });
    await notification({ channel: "email", dispatchState: "queued", dueIn: -30, jobQueued: true }); // job queued, not started
    await notification({ channel: "email", status: "sent", dispatchState: "done", dueIn: -7200 });
    await notification({ channel: "sms", lane: "critical", dispatchState: "queued", dueIn: -5 });

    const backlog = await listBacklog(test.db.pool);
    expect(backlog.map((b) => `${b.channel}:${b.lane}`)).toEqual(["email:critical", "email:bulk", "push:critical", "push:bulk", "sms:critical", "sms:bulk"]);
    const email = backlog.find((b) => b.channel === "email" && b.lane === "bulk")!;
    expect({ waiting: email.waiting, inFlight: email.inFlight }).toEqual({ waiting: 2, inFlight: 2 });
    // The in-flight row fell due 15 minutes ago: it is the oldest.
    expect(Date.now() - email.oldestDueAt!.getTime()).toBeGreaterThanOrEqual(899_000);
    expect(Date.now() - email.oldestDueAt!.getTime()).toBeLessThan(960_000);
    const sms = backlog.find((b) => b.channel === "sms" && b.lane === "critical")!;
    expect({ waiting: sms.waiting, inFlight: sms.inFlight }).toEqual({ waiting: 1, inFlight: 0 });
    expect(backlog.find((b) => b.channel === "push" && b.lane === "bulk")).toEqual({ channel: "push", lane: "bulk", waiting: 0, inFlight: 0, oldestDueAt: null });
  });

  it("counts the last 15 minutes' attempts per channel, lane, provider, outcome and code, and nothing older", async () => {
    const email = await notification({ channel: "email", status: "sent", dispatchState: "done" });
    const sms = await notification({ channel: "sms", lane: "critical", status: "sent", dispatchState: "done" });
    await test.db.pool.query(
      `INSERT INTO herald.notification_events (notification_id, type, at, detail) VALUES
        ($1, 'attempt', now() - interval '1 minute', '{"outcome": "sent", "provider": "ses-email"}'),
        ($1, 'attempt', now() - interval '2 minutes', '{"outcome": "sent", "provider": "ses-email"}'),
        ($1, 'attempt', now() - interval '3 minutes', '{"outcome": "retry", "provider": "ses-email", "providerCode": "Throttling"}'),
        ($1, 'attempt', now() - interval '4 minutes', '{"outcome": "retry", "provider": "ses-email", "providerCode": "Throttling"}'),
        ($1, 'attempt', now() - interval '20 minutes', '{"outcome": "dead", "provider": "ses-email", "providerCode": "MessageRejected"}'),
        ($1, 'sent', now() - interval '1 minute', '{}'),
        ($2, 'attempt', now() - interval '5 minutes', '{"outcome": "dead", "provider": "twilio-sms", "providerCode": "21211"}')`,
      [email, sms],
    );
    expect(await countRecentAttempts(test.db.pool, 15 * 60_000)).toEqual([
      { channel: "email", lane: "bulk", provider: "ses-email", outcome: "retry", code: "Throttling", count: 2 },
      { channel: "email", lane: "bulk", provider: "ses-email", outcome: "sent", code: "", count: 2 },
      { channel: "sms", lane: "critical", provider: "twilio-sms", outcome: "dead", code: "21211", count: 1 },
    ]);
  });

  it("pages orphaned webhooks newest first without skipping rows that share a millisecond", async () => {
    await test.db.pool.query(
      `INSERT INTO herald.webhook_events (provider, event_key, kind, provider_message_id, raw, state, received_at)
       SELECT 'ses', 'k' || g, 'delivery', 'm' || g, '{}', 'orphan', timestamptz '2026-12-01 10:00:00.123' + g * interval '1 microsecond'
         FROM generate_series(1, 5) g
       UNION ALL SELECT 'twilio', 'applied', 'delivered', 'x', '', 'applied', now()`,
    );
    const first = await listOrphanWebhookPage(test.db.pool, { limit: 2, cursor: null });
    expect(first.items.map((w) => w.providerMessageId)).toEqual(["m5", "m4"]);
    const second = await listOrphanWebhookPage(test.db.pool, { limit: 2, cursor: first.nextCursor });
    expect(second.items.map((w) => w.providerMessageId)).toEqual(["m3", "m2"]);
    const last = await listOrphanWebhookPage(test.db.pool, { limit: 2, cursor: second.nextCursor });
    expect(last.items.map((w) => w.providerMessageId)).toEqual(["m1"]);
    expect(last.nextCursor).toBeNull();
    // A cursor that is not one of ours starts from the top rather than failing.
    expect((await listOrphanWebhookPage(test.db.pool, { limit: 2, cursor: "2026-12-01'; DROP TABLE x; --_1" })).items).toHaveLength(2);
  });

  it("raises an alert once while its condition holds and resolves it when it clears", async () => {
    const breaker = { kind: "breaker_open" as const, subject: "ses-email", value: 6, threshold: 5, message: "open" };
    const depth = { kind: "dead_letter_depth" as const, subject: "", value: 120, threshold: 100, message: "deep" };

    const first = await syncAlerts(test.db.pool, [breaker, depth]);
    expect(first.raised.map((a) => a.kind).sort()).toEqual(["breaker_open", "dead_letter_depth"]);
    expect(first.resolved).toEqual([]);

    const again = await syncAlerts(test.db.pool, [{ ...breaker, value: 7 }, depth]);
    expect(again).toEqual({ raised: [], resolved: [] });

    const cleared = await syncAlerts(test.db.pool, [depth]);
    expect(cleared.raised).toEqual([]);
    expect(cleared.resolved).toMatchObject([{ kind: "breaker_open", subject: "ses-email" }]);
    expect(cleared.resolved[0]!.resolvedAt).toBeInstanceOf(Date);
    expect((await listOpenAlerts(test.db.pool)).map((a) => a.kind)).toEqual(["dead_letter_depth"]);

    // The same breaker opening again later is a new alert.
    const reopened = await syncAlerts(test.db.pool, [breaker, depth]);
    expect(reopened.raised).toMatchObject([{ kind: "breaker_open", subject: "ses-email" }]);
    const page = await listAlerts(test.db.pool, { limit: 2, cursor: null });
    expect(page.items).toHaveLength(2);
    const rest = await listAlerts(test.db.pool, { limit: 2, cursor: page.nextCursor });
    expect([...page.items, ...rest.items].map((a) => `${a.kind}:${a.resolvedAt ? "resolved" : "open"}`).sort()).toEqual([
      "breaker_open:open",
      "breaker_open:resolved",
      "dead_letter_depth:open",
    ]);
    expect(rest.nextCursor).toBeNull();
  });

  it("measures dead letters, open breakers, seven days of email rates and the backlog", async () => {
    await notification({ channel: "push", status: "dead", dispatchState: "done" });
    await notification({ channel: "push", status: "dead", dispatchState: "done" });
    await test.db.pool.query(
      `INSERT INTO herald.provider_breakers (breaker_key, state, consecutive_failures, opened_at) VALUES
         ('ses-email', 'open', 5, now() - interval '10 minutes'), ('fcm-push:android', 'closed', 0, NULL);
       INSERT INTO herald.analytics_daily (day, type, channel, sent, bounced, complained) VALUES
         (current_date, 'a', 'email', 600, 30, 1), (current_date - 6, 'b', 'email', 400, 20, 2),
         (current_date - 7, 'a', 'email', 5000, 5000, 5000), (current_date, 'a', 'sms', 100, 0, 0)`,
    );
    const measures = await measureAlerts(test.db.pool);
    expect(measures.deadLetters).toBe(2);
    expect(measures.openBreakers.map((b) => b.key)).toEqual(["ses-email"]);
    expect(measures.email).toEqual({ sent: 1000, bounced: 50, complained: 3 });
    expect(measures.backlog).toHaveLength(6);
  });
});
