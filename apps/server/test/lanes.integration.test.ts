import { ingestEvents } from "@herald/db";
import { describe, expect, it } from "vitest";
import { createProviderRegistry } from "../src/providers/provider-registry.ts";
import { eventually } from "./support/rest.ts";
import { ScriptedProvider } from "./support/scripted-provider.ts";
import { useTestServer } from "./support/test-server.ts";

const BULK = 10_000;

describe("the critical lane", () => {
  const sms = new ScriptedProvider("sms-scripted", "sms");
  const send = sms.send.bind(sms);
  // A provider that takes a moment per batch (at most 1,000 messages a second with two runners),
  // so bulk work is still in progress when the OTP arrives even on a slow, busy machine.
  sms.send = async (messages) => {
    await new Promise((r) => setTimeout(r, 200));
    return send(messages);
  };
  const server = useTestServer({
    withWorkers: true,
    env: { HERALD_SMS_CONCURRENCY: "2", HERALD_BATCH_SIZE: "100" },
    providers: () => createProviderRegistry({ sms: { primary: sms } }),
  });

  it("sends a critical SMS queued behind 10,000 bulk SMS before all but a few of them", async () => {
    const sql = server.database.pool;
    await sql.query(`
      INSERT INTO herald.categories (key, label) VALUES ('news', 'News'), ('security', 'Security');
      INSERT INTO herald.notification_types (type, channels) VALUES
        ('news', '[{"channel": "sms", "category": "news", "lane": "bulk", "content": {"body": "news"}}]'),
        ('otp', '[{"channel": "sms", "category": "security", "lane": "critical", "content": {"body": "otp"}}]');
      INSERT INTO herald.users (external_id, phone) SELECT 'u-' || g, '+49151' || lpad(g::text, 8, '0') FROM generate_series(0, ${BULK}) g;`);
    for (let offset = 0; offset < BULK; offset += 1000) {
      await ingestEvents(
        sql,
        Array.from({ length: 1000 }, (_, i) => ({ eventId: `news-${offset + i}`, type: "news", userId: `u-${offset + i}` })),
      );
    }
    server.workers!.nudgePump();
    await eventually(async () => sms.calls.length, (n) => n >= 500, "bulk sending to be under way");

    const [otp] = await ingestEvents(sql, [{ eventId: "otp-1", type: "otp", userId: `u-${BULK}` }]);
    server.workers!.nudgePump();
    const otpId = otp!.notifications[0]!.id;
    // The moment the pump has handed the OTP a job: from here graphile-worker's priority decides.
    const sentWhenQueued = await eventually(
      async () => {
        const { rows } = await sql.query("SELECT 1 FROM herald.notifications WHERE id = $1 AND job_queued_at IS NOT NULL", [otpId]);
        return rows.length > 0 ? sms.calls.length : -1;
      },
      (n) => n >= 0,
      "the OTP to get its job",
    );
    await eventually(async () => sms.calls.findIndex((m) => m.notificationId === otpId), (i) => i >= 0, "the OTP to be sent");

    const position = sms.calls.findIndex((m) => m.notificationId === otpId);
    // Once it has its job, only batches already running go first (2 runners × 100), plus one a
    // runner may start in the few milliseconds before we noticed the job.
    expect(position - sentWhenQueued).toBeLessThanOrEqual(400);
    // And overall it overtook the backlog: without the lane it would wait behind ~9,500 more.
    expect(BULK - position).toBeGreaterThan(5_000);
  });
});
