import type { JobHelpers } from "graphile-worker";
import { describe, expect, it } from "vitest";
import { autoPauseReason, watchBroadcastsTask } from "../src/tasks/watch-broadcasts.ts";
import { useBroadcastWorkspace } from "./support/sending-broadcast.ts";

const LIMITS = { maxBouncePercent: 5, maxComplaintPercent: 0.1 };
const helpers = { logger: { warn: () => undefined, info: () => undefined } } as unknown as JobHelpers;

describe("the broadcast watch", () => {
  const workspace = useBroadcastWorkspace();

  /** A sending broadcast with `emailed` rows handed to the provider, of which `bounced` bounced and `complaints` complained. */
  async function sending(emailed: number, bounced: number, complaints: number, pending = 0): Promise<string> {
    const sql = workspace.database.pool;
    const id = await workspace.startSending();
    const { rows: users } = await sql.query(
      "INSERT INTO herald.users (external_id, email) SELECT 'w' || $1 || '-' || i, 'w' || $1 || '-' || i || '@example.com' FROM generate_series(1, $2::int) i RETURNING id",
      [id, emailed + pending],
    );
    const { rows } = await sql.query(
      `INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, template_key, template_version, status, dispatch_state, broadcast_id)
       SELECT 'broadcast:' || $1 || ':' || u.id || ':email', u.id, 'broadcast', 'email', 'marketing', 'news', 1,
              CASE WHEN u.n > $2::int THEN 'pending' WHEN u.n <= $3::int THEN 'bounced' ELSE 'delivered' END,
              CASE WHEN u.n > $2::int THEN 'queued' ELSE 'done' END, $1::bigint
         FROM unnest($4::bigint[]) WITH ORDINALITY AS u(id, n) RETURNING id, status`,
      [id, emailed, bounced, users.map((u) => u.id)],
    );
    const delivered = rows.filter((r) => r.status === "delivered").slice(0, complaints);
    await sql.query("INSERT INTO herald.notification_events (notification_id, type) SELECT unnest($1::bigint[]), 'complaint'", [delivered.map((r) => r.id)]);
    return id;
  }

  const broadcast = async (id: string) => (await workspace.database.pool.query("SELECT status, pause_reason FROM herald.broadcasts WHERE id = $1", [id])).rows[0];

  it("pauses a broadcast over the bounce or complaint limit and says why; leaves a healthy one sending", async () => {
    const bouncy = await sending(300, 20, 0, 5);
    const complained = await sending(1000, 0, 2, 5);
    const healthy = await sending(300, 3, 0, 5);
    const early = await sending(100, 30, 0, 5);
    await watchBroadcastsTask(workspace.database.pool, async () => LIMITS)({}, helpers);
    expect(await broadcast(bouncy)).toEqual({ status: "paused", pause_reason: "auto-paused: 6.67 % of 300 emails bounced (limit 5 %)" });
    expect(await broadcast(complained)).toEqual({ status: "paused", pause_reason: "auto-paused: 0.20 % of 1000 emails drew spam complaints (limit 0.1 %)" });
    expect((await broadcast(healthy)).status).toBe("sending");
    // 30 % bounced, but of only 100 emails: too few to judge.
    expect((await broadcast(early)).status).toBe("sending");
    const { rows } = await workspace.database.pool.query("SELECT DISTINCT dispatch_state FROM herald.notifications WHERE broadcast_id = $1 AND status = 'pending'", [bouncy]);
    expect(rows).toEqual([{ dispatch_state: "paused" }]);
  });

  it("marks a broadcast sent once its fan-out is done and nothing is pending", async () => {
    const done = await sending(50, 0, 0, 0);
    const running = await sending(50, 0, 0, 3);
    await watchBroadcastsTask(workspace.database.pool, async () => LIMITS)({}, helpers);
    expect((await broadcast(done)).status).toBe("sent");
    expect((await broadcast(running)).status).toBe("sending");
  });

  it("words the reason from the counts", () => {
    expect(autoPauseReason({ emailed: 199, bounced: 199, complaints: 0 }, LIMITS)).toBeNull();
    expect(autoPauseReason({ emailed: 200, bounced: 10, complaints: 0 }, LIMITS)).toBeNull();
    expect(autoPauseReason({ emailed: 200, bounced: 11, complaints: 0 }, LIMITS)).toMatch(/^auto-paused: 5.50 % of 200 emails bounced/);
  });
});
