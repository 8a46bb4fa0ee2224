import { describe, expect, it } from "vitest";
import { recordAndQueueWebhookEvent } from "../src/webhooks/webhook-events.ts";
import { useTestDatabase } from "./support/test-database.ts";

describe("recordAndQueueWebhookEvent", () => {
  const test = useTestDatabase();
  const event = (eventKey: string) => ({ provider: "ses" as const, eventKey, kind: "Delivery", providerMessageId: "pm-1", raw: "{}" });

  async function state(eventKey: string) {
    const { rows } = await test.db.pool.query(
      `SELECT w.state, w.applied_at IS NOT NULL AS applied,
              (SELECT count(*)::int FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
                WHERE t.identifier = 'apply_webhook_events' AND (j.payload::jsonb)->'ids' @> to_jsonb(ARRAY[w.id::text])) AS jobs
         FROM herald.webhook_events w WHERE w.event_key = $1`,
      [eventKey],
    );
    return rows;
  }

  it("keeps the event and queues its job in one statement; the provider's retry adds neither", async () => {
    const row = await recordAndQueueWebhookEvent(test.db.pool, event("sns-1"), true);
    expect(row).toEqual({ id: expect.stringMatching(/^\d+$/) });
    expect(await state("sns-1")).toEqual([{ state: "pending", applied: false, jobs: 1 }]);
    expect(await recordAndQueueWebhookEvent(test.db.pool, event("sns-1"), true)).toBeNull();
    expect(await state("sns-1")).toEqual([{ state: "pending", applied: false, jobs: 1 }]);
  });

  it("keeps an event with nothing to apply as ignored, with no job", async () => {
    expect(await recordAndQueueWebhookEvent(test.db.pool, event("SM1:sent"), false)).not.toBeNull();
    expect(await state("SM1:sent")).toEqual([{ state: "ignored", applied: true, jobs: 0 }]);
  });
});
