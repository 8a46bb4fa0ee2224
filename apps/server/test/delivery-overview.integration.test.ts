import { describe, expect, it } from "vitest";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcQuery } from "./support/trpc-http.ts";

describe("operations.overview and operations.orphanWebhooks", () => {
  const server = useTestServer();

  it("shows operators and admins the backlog, throughput and provider health, and refuses every other role", async () => {
    const sql = server.database.pool;
    await sql.query(`
      INSERT INTO herald.notifications (dedup_key, type, channel, category, lane, status, dispatch_state, content, next_attempt_at) VALUES
        ('q1', 't', 'sms', 'c', 'critical', 'pending', 'queued', '{}', now() - interval '2 minutes'),
        ('q2', 't', 'sms', 'c', 'critical', 'pending', 'retry_wait', '{}', now() - interval '30 seconds'),
        ('s1', 't', 'email', 'c', 'bulk', 'sent', 'done', '{}', now());
      INSERT INTO herald.notification_events (notification_id, type, detail)
        SELECT id, 'attempt', '{"outcome": "sent", "provider": "ses-email"}'::jsonb FROM herald.notifications WHERE dedup_key = 's1'
        UNION ALL SELECT id, 'attempt', '{"outcome": "retry", "provider": "ses-email", "providerCode": "Throttling"}'::jsonb FROM herald.notifications WHERE dedup_key = 's1';
      INSERT INTO herald.provider_breakers (breaker_key, state, consecutive_failures, opened_at, reason) VALUES ('ses-email', 'open', 5, now(), 'timeout');
      INSERT INTO herald.provider_buckets (provider, rate_per_second, burst, tokens) VALUES ('ses-email', 14, 14, 14);
      INSERT INTO herald.webhook_events (provider, event_key, kind, provider_message_id, raw, state) VALUES ('ses', 'e1', 'bounce', 'unknown-1', '{"x":1}', 'orphan');`);

    for (const role of ["support", "viewer", "marketer"] as const) {
      const { cookie } = await memberWithSession(server.database, role);
      expect((await trpcQuery(server.url, "operations.overview", undefined, { cookie })).error?.data.code).toBe("FORBIDDEN");
      expect((await trpcQuery(server.url, "operations.orphanWebhooks", {}, { cookie })).error?.data.code).toBe("FORBIDDEN");
    }
    const { cookie } = await memberWithSession(server.database, "operator");
    const overview = (await trpcQuery(server.url, "operations.overview", undefined, { cookie })).data;
    expect(overview.windowMinutes).toBe(15);
    const sms = overview.lanes.find((l: { channel: string; lane: string }) => l.channel === "sms" && l.lane === "critical");
    expect(sms).toMatchObject({ waiting: 2, inFlight: 0, sentRecently: 0, failedRecently: 0 });
    expect(sms.oldestAgeSeconds).toBeGreaterThanOrEqual(120);
    expect(overview.lanes.find((l: { channel: string; lane: string }) => l.channel === "email" && l.lane === "bulk")).toMatchObject({
      waiting: 0,
      oldestAgeSeconds: null,
      sentRecently: 1,
      failedRecently: 1,
    });
    const ses = overview.providers.find((p: { provider: string }) => p.provider === "ses-email");
    expect(ses).toMatchObject({
      bucket: { ratePerSecond: 14, burst: 14 },
      breakers: [{ key: "ses-email", state: "open", reason: "timeout" }],
      attempts: 2,
      sent: 1,
      errors: [{ outcome: "retry", code: "Throttling", count: 1, rate: 0.5 }],
    });

    const orphans = (await trpcQuery(server.url, "operations.orphanWebhooks", { limit: 10 }, { cookie })).data;
    expect(orphans.items).toMatchObject([{ provider: "ses", kind: "bounce", providerMessageId: "unknown-1", raw: '{"x":1}' }]);
    expect(orphans.nextCursor).toBeNull();
    const tooMany = await trpcQuery(server.url, "operations.orphanWebhooks", { limit: 1000 }, { cookie });
    expect(tooMany.error?.message).toMatch(/^limit: /);
  });
});
