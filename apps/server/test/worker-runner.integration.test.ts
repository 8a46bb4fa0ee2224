import {
  createBroadcast,
  createTemplate,
  openDatabase,
  publishTemplateDraft,
  reapDeadWorkers,
  scheduleKeyedJob,
  transitionBroadcast,
  type Database,
} from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import { quickAddJob } from "graphile-worker";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadEnv } from "../src/env.ts";
import { configuredProviders } from "../src/providers/configured-providers.ts";
import { createSettingsCache } from "../src/settings/settings-service.ts";
import { heartbeatIntervalMs, startWorkers } from "../src/workers/worker-runner.ts";
import { eventually } from "./support/rest.ts";
import { capturedLog, databaseOutage } from "./support/database-outage.ts";

describe("the worker runner", () => {
  let testDatabase: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(inject("templateUrl"));
    database = openDatabase(testDatabase.url);
  });
  async function workerDeps(extraEnv: Record<string, string> = {}, log = pino({ level: "silent" })) {
    const env = loadEnv({ DATABASE_URL: testDatabase.url, ...extraEnv });
    const settings = createSettingsCache(database, env);
    await settings.get();
    return { databaseUrl: testDatabase.url, database, env, settings, providers: await configuredProviders(env, database.pool, settings, log), log };
  }

  afterAll(async () => {
    await database.close();
    await testDatabase.drop();
  });

  it("lets an in-flight job finish when stopped, and leaves nothing locked", async () => {
    const events: string[] = [];
    let started!: () => void;
    const jobStarted = new Promise<void>((resolve) => (started = resolve));
    const workers = await startWorkers({
      ...(await workerDeps()),
      extraTasks: {
        slow_job: async () => {
          events.push("started");
          started();
          await new Promise((r) => setTimeout(r, 1500));
          events.push("finished");
        },
      },
    });
    expect(workers.state()).toBe("running");
    await quickAddJob({ connectionString: testDatabase.url }, "slow_job", {});
    await jobStarted;

    await workers.stop();
    events.push("stopped");
    expect(events).toEqual(["started", "finished", "stopped"]);
    expect(workers.state()).toBe("stopped");
    const { rows } = await database.pool.query("SELECT task_identifier, locked_at, locked_by FROM graphile_worker.jobs");
    expect(rows).toEqual([]);
  });

  it("beats often enough that a short silence never declares a live worker dead", async () => {
    expect(heartbeatIntervalMs(45_000)).toBe(10_000);
    expect(heartbeatIntervalMs(2_000)).toBe(500);
    const workers = await startWorkers(await workerDeps({ HERALD_WORKER_SILENCE_MS: "2000" }));
    try {
      // Three silences long: with the old fixed 10 s beat its own heartbeat would be 6 s old here.
      await new Promise((r) => setTimeout(r, 6_000));
      const reaped = await reapDeadWorkers(database.pool, 2_000, 600_000);
      expect(reaped.workers).toEqual([]);
      const { rows } = await database.pool.query("SELECT count(*)::int AS n FROM herald.worker_heartbeats WHERE last_seen_at > now() - interval '2 seconds'");
      expect(rows[0].n).toBe(1);
    } finally {
      await workers.stop();
    }
  });

  it("frees a silent worker's jobs at its next beat, not at the next minute's reaper", async () => {
    const { log, lines, step } = capturedLog();
    const workers = await startWorkers(await workerDeps({ HERALD_WORKER_SILENCE_MS: "2000" }, log));
    try {
      // A worker that died after this one started: its row goes quiet, its job stays locked.
      await database.pool.query("INSERT INTO herald.worker_heartbeats (worker_id, pool_ids, hostname, pid) VALUES ('dead', '{pool-dead}', 'h', 9)");
      const { rows } = await database.pool.query<{ id: string }>("SELECT id::text FROM graphile_worker.add_job('unknown_task', '{}'::json, run_at => now() + interval '1 hour')");
      await database.pool.query("UPDATE graphile_worker._private_jobs SET locked_by = 'pool-dead', locked_at = now() WHERE id = $1", [rows[0]!.id]);
      // The minute's reaper logs through graphile-worker; only the beat's reap names the workers.
      await step("a beat reaped the dead worker", () => lines.some((l) => l.includes('"workers":["dead"]')), 20_000);
      const { rows: after } = await database.pool.query("SELECT locked_by FROM graphile_worker._private_jobs WHERE id = $1", [rows[0]!.id]);
      expect(after).toEqual([{ locked_by: null }]);
      await database.pool.query("DELETE FROM graphile_worker._private_jobs WHERE id = $1", [rows[0]!.id]);
    } finally {
      await workers.stop();
    }
  });

  it("reaps no one right after the database comes back: every heartbeat went stale with it", async () => {
    const outage = await databaseOutage(testDatabase.url);
    const { log, lines, step } = capturedLog();
    const workers = await startWorkers(await workerDeps({ HERALD_WORKER_SILENCE_MS: "2000" }, log));
    // Another worker, alive: its job runs on while the database is away.
    await database.pool.query("INSERT INTO herald.worker_heartbeats (worker_id, pool_ids, hostname, pid) VALUES ('alive', '{pool-alive}', 'h', 8)");
    const { rows } = await database.pool.query<{ id: string }>("SELECT id::text FROM graphile_worker.add_job('unknown_task', '{}'::json, run_at => now() + interval '1 hour')");
    const job = rows[0]!.id;
    await database.pool.query("UPDATE graphile_worker._private_jobs SET locked_by = 'pool-alive', locked_at = now() WHERE id = $1", [job]);
    try {
      await outage.begin();
      await step("a beat failed", () => lines.some((l) => l.includes("heartbeat failed")), 20_000);
      // Away for longer than a silence: the other worker's heartbeat is as old as this one's.
      await database.pool.query("UPDATE herald.worker_heartbeats SET last_seen_at = now() - interval '5 seconds' WHERE worker_id = 'alive'").catch(() => undefined);
      await outage.end();
      await database.pool.query("UPDATE herald.worker_heartbeats SET last_seen_at = now() - interval '5 seconds' WHERE worker_id = 'alive'");
      // This worker beats every 0.5 s: its first beats back see the other one silent.
      await new Promise((r) => setTimeout(r, 1_000));
      // The other worker beats again from here on, as a live one does.
      const alive = setInterval(() => void database.pool.query("UPDATE herald.worker_heartbeats SET last_seen_at = now() WHERE worker_id = 'alive'").catch(() => undefined), 300);
      await new Promise((r) => setTimeout(r, 3_000));
      clearInterval(alive);
      const { rows: after } = await database.pool.query("SELECT locked_by FROM graphile_worker._private_jobs WHERE id = $1", [job]);
      expect(after).toEqual([{ locked_by: "pool-alive" }]);
      expect(lines.filter((l) => l.includes("released the jobs of silent workers"))).toEqual([]);
    } finally {
      await outage.end();
      await outage.close();
      await workers.stop();
      await database.pool.query("DELETE FROM graphile_worker._private_jobs WHERE id = $1", [job]);
      await database.pool.query("DELETE FROM herald.worker_heartbeats WHERE worker_id = 'alive'");
    }
  }, 60_000);

  it("prunes expired sessions on its schedule's task", async () => {
    const member = await database.prisma.member.create({ data: { email: "p@example.com", name: "P", role: "viewer", passwordHash: "x" } });
    await database.prisma.session.createMany({
      data: [
        { id: "old", memberId: member.id, expiresAt: new Date(Date.now() - 1000) },
        { id: "live", memberId: member.id, expiresAt: new Date(Date.now() + 60_000) },
      ],
    });
    const workers = await startWorkers(await workerDeps());
    await quickAddJob({ connectionString: testDatabase.url }, "prune_sessions", {});
    const deadline = Date.now() + 20_000;
    while ((await database.prisma.session.count()) !== 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await workers.stop();
    expect((await database.prisma.session.findMany()).map((s) => s.id)).toEqual(["live"]);
  });

  it("starts a broadcast due while no worker ran once one comes up, and two workers start it once", async () => {
    const sql = database.pool;
    const memberId = (await sql.query("INSERT INTO herald.members (email, name, role, password_hash) VALUES ('m@example.com', 'M', 'marketer', 'x') RETURNING id::text")).rows[0].id;
    await sql.query("INSERT INTO herald.categories (key, label) VALUES ('news', 'News')");
    const draft = { variables: [], content: { en: { email: { subject: "News", html: "<p>News</p>" } } } };
    await createTemplate(sql, { key: "news", name: "News", channels: ["email"], defaultCategory: "news", defaultLocale: "en", memberId, draft });
    await publishTemplateDraft(sql, "news", memberId, () => []);
    await sql.query("INSERT INTO herald.users (external_id, email) SELECT 'sched-' || i, 'sched-' || i || '@example.com' FROM generate_series(1, 30) i");
    const segment = (await sql.query(`INSERT INTO herald.segments (name, rule) VALUES ('with email', '{"kind": "has_email"}') RETURNING id::text`)).rows[0].id;
    const id = await createBroadcast(
      sql,
      { name: "due", segmentId: segment, templateKey: "news", variants: [{ version: 1, percent: 100 }], channels: ["email"], category: "news", lane: "bulk", holdoutPercent: 0, throttlePerMinute: null, data: {} },
      memberId,
    );
    // Scheduled as the API does it: a keyed job with its run_at, due while no worker runs.
    const at = new Date(Date.now() + 500);
    expect(await transitionBroadcast(sql, id, ["draft"], "scheduled", { schedule: { kind: "at", at: at.toISOString(), timezone: "UTC" }, startsAt: at, memberId })).toBe("scheduled");
    await scheduleKeyedJob(sql, "start_broadcast", { broadcastId: id }, at, `broadcast:${id}`);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await sql.query("SELECT status FROM herald.broadcasts WHERE id = $1", [id])).rows[0].status).toBe("scheduled");

    const first = await startWorkers(await workerDeps());
    const second = await startWorkers(await workerDeps());
    try {
      const state = async () =>
        (
          await sql.query<{ status: string; rows: number; sent: number }>(
            `SELECT b.status, (SELECT count(*)::int FROM herald.notifications n WHERE n.broadcast_id = b.id) AS rows,
                    (SELECT count(*)::int FROM herald.sandbox_messages s JOIN herald.notifications n ON n.id = s.notification_id WHERE n.broadcast_id = b.id) AS sent
               FROM herald.broadcasts b WHERE b.id = $1`,
            [id],
          )
        ).rows[0]!;
      await eventually(state, (st) => st.sent >= 30, "the broadcast's 30 sends", 30_000);
      // One row and one send per member, whichever worker took the start and the batches.
      expect(await state()).toMatchObject({ rows: 30, sent: 30 });
      expect(["sending", "sent"]).toContain((await state()).status);
      const { rows } = await sql.query("SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = $1", [`broadcast:${id}`]);
      expect(rows[0].n).toBe(0);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it("starts a runner again after the database went away under it, and frees the jobs its exited pool held", async () => {
    const outage = await databaseOutage(testDatabase.url);
    // What the workers log, to wait on the supervisor's own words and to show on a failure.
    const { log, logged, step } = capturedLog();
    let runs = 0;
    let finish!: () => void;
    const firstRunMayFinish = new Promise<void>((resolve) => (finish = resolve));
    const workers = await startWorkers({
      ...(await workerDeps({}, log)),
      extraTasks: {
        held_job: async () => {
          runs++;
          if (runs === 1) await firstRunMayFinish;
        },
      },
    });
    const addJob = () => quickAddJob({ pgPool: database.pool }, "held_job", {});
    try {
      await addJob();
      await step("the job started", () => runs === 1, 20_000);
      const { rows: before } = await database.pool.query<{ pool_ids: string[] }>("SELECT pool_ids FROM herald.worker_heartbeats");
      const { rows: holder } = await database.pool.query<{ locked_by: string }>("SELECT locked_by FROM graphile_worker.jobs WHERE task_identifier = 'held_job'");
      expect(before[0]!.pool_ids).toContain(holder[0]!.locked_by);

      // The server goes away while the job runs: graphile-worker cannot record it as done.
      await outage.begin();
      finish();
      await step("the runner exited", () => logged("worker runner exited; starting it again"), 20_000);
      expect(workers.state()).toBe("restarting");

      await outage.end();
      // The exited pool's lock is released rather than left for four hours: the job runs again.
      await step("the exited runner's jobs released", () => logged("released the jobs of an exited worker runner"), 20_000);
      await step("every runner running again", () => workers.state() === "running", 20_000);
      await step("the job run again", async () => runs === 2 && (await database.pool.query("SELECT 1 FROM graphile_worker.jobs")).rowCount === 0, 15_000);
      // Later jobs are taken too, by the runner that replaced it.
      await addJob();
      await step("a later job run", () => runs === 3, 15_000);
      const { rows: after } = await database.pool.query<{ pool_ids: string[] }>("SELECT pool_ids FROM herald.worker_heartbeats");
      expect(after[0]!.pool_ids).not.toContain(holder[0]!.locked_by);
    } finally {
      finish();
      await outage.end();
      await outage.close();
      await workers.stop();
    }
    expect(workers.state()).toBe("stopped");
  }, 120_000);
});
