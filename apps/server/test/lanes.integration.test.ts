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
  // A provider that takes a moment per batch, so bulk work is still in progress when the OTP arrives.
  sms.send = async (messages) => {
    await new Promise((r) => setTimeout(r, 25));
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

    const sentBeforeOtp = sms.calls.length;
    const [otp] = await ingestEvents(sql, [{ eventId: "otp-1", type: "otp", userId: `u-${BULK}` }]);
    server.workers!.nudgePump();
    const otpId = otp!.notifications[0]!.id;
    await eventually(async () => sms.calls.findIndex((m) => m.notificationId === otpId), (i) => i >= 0, "the OTP to be sent");

    const position = sms.calls.findIndex((m) => m.notificationId === otpId);
    // Without the lane it would wait for the whole backlog (~9,500 more). With it, only batches
    // already started or starting before the pump's next pass go first: 2 runners × 100 in
    // flight plus a few more when a loaded machine slows the pump (seen: 200–500).
    expect(position - sentBeforeOtp).toBeLessThanOrEqual(1_000);
    expect(BULK - position).toBeGreaterThan(8_000);
  });
});
