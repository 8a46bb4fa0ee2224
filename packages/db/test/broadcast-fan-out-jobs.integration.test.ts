import { run, type Job } from "graphile-worker";
import { describe, expect, it } from "vitest";
import {
  cancelBroadcast,
  claimBatch,
  createBroadcast,
  createTemplate,
  fanOutChunk,
  ingestEvents,
  pauseBroadcast,
  publishTemplateDraft,
  pumpOnce,
  reapDeadWorkers,
  resumeBroadcast,
  transitionBroadcast,
  type AudienceQuery,
  type BroadcastFields,
  type FanOutTiming,
} from "../src/index.ts";
import { routeType } from "./support/fixtures.ts";
import { useTestDatabase } from "./support/test-database.ts";

const audience = (prefix: string): AudienceQuery => ({ sql: "SELECT u.id AS user_id FROM herald.users u WHERE u.external_id LIKE $1", params: [`${prefix}%`] });
const NOW: FanOutTiming = { kind: "instant", at: new Date() };

interface SendJob {
  id: string;
  task: string;
  priority: number;
  ids: string[];
}

/** Rows due now are committed with their send jobs; the pump is left only what is due later. */
describe("broadcast fan-out with its send jobs", () => {
  const test = useTestDatabase();
  let memberId = "";
  let segmentId = "";

  async function setUp() {
    if (memberId) return;
    const sql = test.db.pool;
    memberId = (await sql.query("INSERT INTO herald.members (email, name, role, password_hash) VALUES ('b@example.com', 'B', 'marketer', 'x') RETURNING id::text")).rows[0].id;
    segmentId = (await sql.query(`INSERT INTO herald.segments (name, rule) VALUES ('everyone', '{"kind": "and", "children": []}') RETURNING id::text`)).rows[0].id;
    await sql.query("INSERT INTO herald.categories (key, label) VALUES ('marketing', 'Marketing') ON CONFLICT DO NOTHING");
    const body = { variables: [], content: { en: { email: { subject: "Sale", html: "<p>Sale</p>" }, push: { title: "Sale", body: "Now" } } } };
    await createTemplate(sql, { key: "sale", name: "Sale", channels: ["email", "push"], defaultCategory: null, defaultLocale: "en", memberId, draft: body });
    await publishTemplateDraft(sql, "sale", memberId, () => []);
  }

  async function users(prefix: string, count: number) {
    await test.db.pool.query(
      "INSERT INTO herald.users (external_id, email) SELECT $1 || i, $1 || i || '@example.com' FROM generate_series(0, $2 - 1) i",
      [prefix, count],
    );
  }

  async function broadcast(fields: Partial<BroadcastFields> = {}): Promise<string> {
    await setUp();
    const id = await createBroadcast(
      test.db.pool,
      { name: "b", segmentId, templateKey: "sale", variants: [{ version: 1, percent: 100 }], channels: ["email"], category: "marketing", lane: "bulk", holdoutPercent: 0, throttlePerMinute: null, data: {}, ...fields },
      memberId,
    );
    await transitionBroadcast(test.db.pool, id, ["draft"], "sending");
    return id;
  }

  async function fanOutAll(id: string, prefix: string, chunk: number, batchSize: number, timing: FanOutTiming = NOW) {
    for (;;) {
      const outcome = await fanOutChunk(test.db.pool, id, audience(prefix), timing, chunk, { batchSize, lookaheadMs: 5_000 });
      if (outcome.kind === "stopped" || outcome.done) return;
    }
  }

  /** The send jobs holding any of the broadcast's rows. */
  async function jobsOf(id: string): Promise<SendJob[]> {
    const { rows } = await test.db.pool.query(
      `SELECT j.id::text, t.identifier AS task, j.priority, ARRAY(SELECT json_array_elements_text(j.payload->'ids')) AS ids
         FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        WHERE EXISTS (SELECT 1 FROM json_array_elements_text(j.payload->'ids') x(id) JOIN herald.notifications n ON n.id = x.id::bigint WHERE n.broadcast_id = $1)
        ORDER BY j.id`,
      [id],
    );
    return rows;
  }

  const rowsOf = async (id: string) =>
    (
      await test.db.pool.query(
        "SELECT id::text, channel, job_queued_at IS NOT NULL AS queued, dispatch_state FROM herald.notifications WHERE broadcast_id = $1 ORDER BY id",
        [id],
      )
    ).rows;

  it("commits every due row with exactly one send job of at most batchSize ids, and a re-run adds none", async () => {
    await users("jobs-", 250);
    const id = await broadcast({ channels: ["email", "push"] });
    await fanOutAll(id, "jobs-", 100, 40);
    const rows = await rowsOf(id);
    expect(rows).toHaveLength(500);
    expect(rows.every((r) => r.queued && r.dispatch_state === "queued")).toBe(true);
    const jobs = await jobsOf(id);
    // Chunks of 100, 100 and 50 users; each channel's rows of a chunk in jobs of at most 40 ids.
    const sizes = (js: SendJob[]) => js.map((j) => j.ids.length).sort((a, b) => a - b);
    expect(sizes(jobs)).toEqual([10, 10, 20, 20, 20, 20, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40]);
    expect(jobs.every((j) => j.priority === 0)).toBe(true);
    const held = jobs.flatMap((j) => j.ids);
    expect(held.sort()).toEqual(rows.map((r) => r.id).sort());
    const channelOf = new Map(rows.map((r) => [r.id, r.channel]));
    expect(jobs.every((j) => j.ids.every((n) => `send_${channelOf.get(n)}` === j.task))).toBe(true);
    // Nothing is left for the pump.
    expect(await pumpOnce(test.db.pool, { batchSize: 100, maxQueuedBatches: 1_000, lookaheadMs: 5_000 })).toEqual([]);

    // The start job again from the beginning (a crash before the cursor moved): same rows, same jobs.
    await test.db.pool.query("UPDATE herald.broadcasts SET fanout_after_user = 0, fanout_done_at = NULL WHERE id = $1", [id]);
    const again = await fanOutChunk(test.db.pool, id, audience("jobs-"), NOW, 1_000, { batchSize: 40, lookaheadMs: 5_000 });
    expect(again).toMatchObject({ kind: "chunk", users: 250, created: 0, jobs: 0, done: true });
    expect(await rowsOf(id)).toEqual(rows);
    expect(await jobsOf(id)).toEqual(jobs);

  });

  it("leaves rows due later to the pump: a schedule beyond the look-ahead, a throttle's later minutes", async () => {
    await users("later-", 10);
    const later = await broadcast();
    await fanOutAll(later, "later-", 100, 100, { kind: "instant", at: new Date(Date.now() + 3_600_000) });
    expect((await rowsOf(later)).every((r) => !r.queued)).toBe(true);
    expect(await jobsOf(later)).toEqual([]);

    const throttled = await broadcast({ throttlePerMinute: 4 });
    await fanOutAll(throttled, "later-", 3, 100);
    // Four rows a minute: the first minute's are due now and have jobs, the rest wait as rows.
    expect((await rowsOf(throttled)).map((r) => r.queued)).toEqual([true, true, true, true, false, false, false, false, false, false]);
    expect((await jobsOf(throttled)).flatMap((j) => j.ids)).toHaveLength(4);
  });

  it("commits rows and jobs together: a chunk that fails after its insert leaves neither", async () => {
    await users("rollback-", 20);
    const id = await broadcast();
    const jobsBefore = (await test.db.pool.query("SELECT count(*)::int AS n FROM graphile_worker._private_jobs")).rows[0].n;
    // The chunk's last statement (moving the cursor) fails: the insert and add_jobs before it must go too.
    await test.db.pool.query(`
      CREATE FUNCTION public.refuse_cursor() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'cursor refused'; END $$;
      CREATE TRIGGER refuse_cursor BEFORE UPDATE OF fanout_after_user ON herald.broadcasts FOR EACH ROW EXECUTE FUNCTION public.refuse_cursor();`);
    try {
      await expect(fanOutChunk(test.db.pool, id, audience("rollback-"), NOW, 100, { batchSize: 5, lookaheadMs: 5_000 })).rejects.toThrow(/cursor refused/);
    } finally {
      await test.db.pool.query("DROP TRIGGER refuse_cursor ON herald.broadcasts; DROP FUNCTION public.refuse_cursor()");
    }
    expect(await rowsOf(id)).toEqual([]);
    expect((await test.db.pool.query("SELECT count(*)::int AS n FROM graphile_worker._private_jobs")).rows[0].n).toBe(jobsBefore);

    await fanOutAll(id, "rollback-", 100, 5);
    expect(await rowsOf(id)).toHaveLength(20);
    expect(await jobsOf(id)).toHaveLength(4);
  });

  it("a paused or canceled broadcast's queued jobs claim nothing, and the reaper leaves rows whose job still waits", async () => {
    await users("ctl-", 30);
    const id = await broadcast();
    await fanOutAll(id, "ctl-", 100, 10);
    const jobs = await jobsOf(id);
    expect(jobs).toHaveLength(3);

    // Queued longer than the reaper's limit, but their jobs are still there: not stuck.
    await test.db.pool.query("UPDATE herald.notifications SET updated_at = now() - interval '1 hour' WHERE broadcast_id = $1", [id]);
    expect((await reapDeadWorkers(test.db.pool, 60_000, 600_000)).requeued).toBe(0);
    expect((await rowsOf(id)).every((r) => r.queued)).toBe(true);

    expect(await pauseBroadcast(test.db.pool, id, "checking the copy", memberId)).toBe(30);
    for (const job of jobs) expect(await claimBatch(test.db.pool, job.ids, job.id)).toEqual([]);
    expect(await pumpOnce(test.db.pool, { batchSize: 10, maxQueuedBatches: 1_000, lookaheadMs: 5_000 })).toEqual([]);

    // Resumed, the rows are the pump's again (the old jobs may take them first: a claim is one UPDATE).
    expect(await resumeBroadcast(test.db.pool, id, memberId)).toBe(30);
    const [first] = jobs;
    expect((await claimBatch(test.db.pool, first!.ids, first!.id)).map((n) => n.id).sort()).toEqual([...first!.ids].sort());
    expect(await cancelBroadcast(test.db.pool, id, memberId)).toBe(20);
    for (const job of jobs.slice(1)) expect(await claimBatch(test.db.pool, job.ids, job.id)).toEqual([]);
    expect(await pumpOnce(test.db.pool, { batchSize: 10, maxQueuedBatches: 1_000, lookaheadMs: 5_000 })).toEqual([]);
  });

  it("reaps rows queued long ago whose job is gone", async () => {
    await users("lost-", 5);
    const id = await broadcast();
    await fanOutAll(id, "lost-", 100, 10);
    const [job] = await jobsOf(id);
    await test.db.pool.query("DELETE FROM graphile_worker._private_jobs WHERE id = $1", [job!.id]);
    await test.db.pool.query("UPDATE herald.notifications SET updated_at = now() - interval '1 hour' WHERE broadcast_id = $1", [id]);
    expect((await reapDeadWorkers(test.db.pool, 60_000, 600_000)).requeued).toBe(5);
    expect((await rowsOf(id)).every((r) => !r.queued && r.dispatch_state === "queued")).toBe(true);
  });

  it("a critical row's job starts first with 10,000 bulk send jobs waiting", async () => {
    const sql = test.db.pool;
    await users("bulk-", 10_000);
    const id = await broadcast();
    await fanOutAll(id, "bulk-", 5_000, 1);
    expect(await jobsOf(id)).toHaveLength(10_000);

    await routeType(sql, "otp.sms", [{ channel: "sms", lane: "critical" }]);
    const [otp] = await ingestEvents(sql, [{ eventId: "otp-1", type: "otp.sms", userId: "u-otp" }]);
    const otpId = otp!.notifications[0]!.id;
    // The bulk lane is far over its allowance; the critical lane has its own, so the OTP gets its job.
    expect(await pumpOnce(sql, { batchSize: 100, maxQueuedBatches: 16, lookaheadMs: 5_000 })).toEqual([{ channel: "sms", lane: "critical", notifications: 1, jobs: 1 }]);

    // One worker, one job at a time: graphile-worker picks by priority, so the OTP's job comes first.
    const started: Array<{ task: string; ids: string[] }> = [];
    let firstJob: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (firstJob = resolve));
    const record = async (payload: unknown, helpers: { job: Job }) => {
      started.push({ task: helpers.job.task_identifier, ids: (payload as { ids: string[] }).ids });
      firstJob();
    };
    // The test's own pool: graphile-worker ends a pool it made without waiting, and the
    // database drop at teardown could end one of its connections first (an uncaught error).
    const runner = await run({ pgPool: sql, concurrency: 1, noHandleSignals: true, pollInterval: 100, taskList: { send_email: record, send_sms: record } });
    try {
      await first;
    } finally {
      await runner.stop();
    }
    expect(started[0]).toEqual({ task: "send_sms", ids: [otpId] });
  });
});
