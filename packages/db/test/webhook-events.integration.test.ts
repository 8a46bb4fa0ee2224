import { describe, expect, it } from "vitest";
import { MAX_WEBHOOK_GROUP, recordAndQueueWebhookEvents, type WebhookToRecord } from "../src/webhooks/webhook-events.ts";
import { useTestDatabase } from "./support/test-database.ts";

describe("recordAndQueueWebhookEvents", () => {
  const test = useTestDatabase();
  const event = (eventKey: string, apply = true): WebhookToRecord => ({ provider: "ses", eventKey, kind: "Delivery", providerMessageId: "pm-1", raw: "{}", apply });

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

  async function applyJobs(): Promise<string[][]> {
    const { rows } = await test.db.pool.query<{ ids: string[] }>(
      `SELECT (j.payload::jsonb)->'ids' AS ids FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        WHERE t.identifier = 'apply_webhook_events' ORDER BY j.id`,
    );
    return rows.map((r) => r.ids);
  }

  it("keeps the event and queues its job in one statement; the provider's retry adds neither", async () => {
    const [id] = await recordAndQueueWebhookEvents(test.db.pool, [event("sns-1")]);
    expect(id).toMatch(/^\d+$/);
    expect(await state("sns-1")).toEqual([{ state: "pending", applied: false, jobs: 1 }]);
    expect(await recordAndQueueWebhookEvents(test.db.pool, [event("sns-1")])).toEqual([null]);
    expect(await state("sns-1")).toEqual([{ state: "pending", applied: false, jobs: 1 }]);
  });

  it("keeps an event with nothing to apply as ignored, with no job", async () => {
    const before = await applyJobs();
    expect(await recordAndQueueWebhookEvents(test.db.pool, [event("SM1:sent", false)])).toEqual([expect.stringMatching(/^\d+$/)]);
    expect(await state("SM1:sent")).toEqual([{ state: "ignored", applied: true, jobs: 0 }]);
    expect(await applyJobs()).toEqual(before);
  });

  it("records a group in one statement with one job for the rows to apply, keeping the first of a repeated event", async () => {
    const before = (await applyJobs()).length;
    const ids = await recordAndQueueWebhookEvents(test.db.pool, [
      event("g-1"),
      event("g-2", false),
      event("g-1"), // SNS delivered it twice within the group
      event("sns-1"), // recorded by an earlier test
      event("g-3"),
    ]);
    expect(ids).toEqual([expect.stringMatching(/^\d+$/), expect.stringMatching(/^\d+$/), null, null, expect.stringMatching(/^\d+$/)]);
    const jobs = await applyJobs();
    expect(jobs).toHaveLength(before + 1);
    expect(jobs.at(-1)).toEqual([ids[0], ids[4]]);
    expect(await state("g-2")).toEqual([{ state: "ignored", applied: true, jobs: 0 }]);
  });

  it("records nothing and queues nothing for a group with nothing new", async () => {
    const before = await applyJobs();
    expect(await recordAndQueueWebhookEvents(test.db.pool, [event("g-1"), event("g-3")])).toEqual([null, null]);
    expect(await recordAndQueueWebhookEvents(test.db.pool, [])).toEqual([]);
    expect(await applyJobs()).toEqual(before);
  });

  it("refuses a group larger than one apply job takes", async () => {
    const group = Array.from({ length: MAX_WEBHOOK_GROUP + 1 }, (_, i) => event(`big-${i}`));
    await expect(recordAndQueueWebhookEvents(test.db.pool, group)).rejects.toThrow(RangeError);
    expect(await state("big-0")).toEqual([]);
  });
});
