import { attachEmbeddedServer, type EmbeddedPostgres } from "@herald/db/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startApi, type HeraldApi } from "../src/herald-api.ts";
import { Scenario } from "../src/scenario.ts";
import { ok } from "../src/simulator/faults.ts";
import { emitNews, seedWorkload } from "../src/workload.ts";

const USERS = 40;
// Slow enough that batches are mid-call when the server goes away.
const LATENCY = ok(150);
/** How long the server stays down: 60 s in the long run, a few seconds in `pnpm test:chaos`. */
const DOWN_MS = process.env.HERALD_CHAOS_LONG ? 60_000 : 5_000;
/** The provider request the outage starts on: well into the first wave, with batches open. */
const ON_REQUEST = 20;

// Stopping the server needs one the suite owns: with DATABASE_URL, the machine's is shared.
const embeddedDataDir = inject("embeddedDataDir");
const describeOutage = embeddedDataDir ? describe : describe.skip;

describeOutage("Postgres restarted mid-dispatch", () => {
  let scenario: Scenario;
  let server: EmbeddedPostgres;
  beforeAll(async () => {
    server = await attachEmbeddedServer(embeddedDataDir!);
    scenario = await Scenario.open("postgres-restart", inject("templateUrl"));
  });
  afterAll(async () => {
    await scenario?.close();
    await server?.release();
  });

  it("keeps the worker up, recovers its pools and LISTEN connections, loses nothing and repeats only what the outage exposed", async () => {
    const s = scenario;
    await seedWorkload(s.sql, 2 * USERS);
    for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, LATENCY);
    const worker = s.startWorker();
    await s.ready(worker);
    const listeners = await runnerCount(s, worker.pid);
    expect(await listenConnectionsSettle(s, listeners)).toBe(listeners);

    let outage: Promise<unknown> | null = null;
    s.sim.onRequest = async (entry) => {
      if (outage || entry.provider === "oauth" || entry.seq < ON_REQUEST) return;
      // Awaited before this call is answered: the restart lands with it open.
      outage = s.databaseOutage(server, 0);
      await outage;
    };
    const first = await emitNews(s.sql, USERS, "before");
    while (!outage) await new Promise((r) => setTimeout(r, 50));
    await outage;

    // The same process, not a restarted one, finishes the first wave and sends a second.
    await s.drain(first);
    const expected = first + (await emitNews(s.sql, USERS, "after", USERS + 1));
    await s.drain(expected);
    expect(worker.child.exitCode).toBeNull();
    // Every runner listens again: pickup is back to LISTEN/NOTIFY, not the 2 s poll. An exited
    // runner's listener may outlive the drain by a moment (its pool deactivates after the new
    // one listens); one that stays is a leak.
    expect(await listenConnectionsSettle(s, listeners)).toBe(listeners);

    const summary = await s.finish(expected);
    expect(summary).toMatchObject({ notifications: expected, lost: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected });
    expect(summary.duplicates).toBeLessThanOrEqual(summary.duplicate_budget);
  });
});

describeOutage(`Postgres down for ${DOWN_MS / 1000} s`, () => {
  let scenario: Scenario;
  let server: EmbeddedPostgres;
  let api: HeraldApi;
  beforeAll(async () => {
    server = await attachEmbeddedServer(embeddedDataDir!);
    scenario = await Scenario.open("postgres-down", inject("templateUrl"));
  });
  afterAll(async () => {
    await api?.stop();
    await scenario?.close();
    await server?.release();
  });

  it("answers the API with 503 and Retry-After and webhooks with 5xx, writes nothing half-way, and sends everything once it is back", async () => {
    const s = scenario;
    // One user more than the workload: the event sent during the outage is theirs.
    await seedWorkload(s.sql, USERS + 1);
    const latecomer = { eventId: "during-outage", type: "news", userId: `u-${USERS + 1}` };
    for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, LATENCY);
    api = await startApi(s);
    const worker = s.startWorker();
    await s.ready(worker);

    const during: Array<{ what: string; status: number; retryAfter: string | null; body: string }> = [];
    let outage: Promise<unknown> | null = null;
    s.sim.onRequest = async (entry) => {
      if (outage || entry.provider === "oauth" || entry.seq < ON_REQUEST) return;
      outage = s.databaseOutage(server, DOWN_MS);
      // Asked once the server is surely gone: the stop returns in well under a second.
      await new Promise((r) => setTimeout(r, Math.min(2_000, DOWN_MS / 2)));
      during.push({ what: "ingest", ...(await api.postEvent(latecomer)) });
      during.push({ what: "twilio webhook", ...(await api.postTwilioStatus({ MessageSid: `SM${"0".repeat(32)}`, MessageStatus: "delivered" })) });
      await outage;
    };
    const first = await emitNews(s.sql, USERS);
    while (!outage) await new Promise((r) => setTimeout(r, 50));
    await outage;

    const ingest = during.find((d) => d.what === "ingest")!;
    expect(ingest.status).toBe(503);
    expect(ingest.retryAfter).toMatch(/^\d+$/);
    expect(JSON.parse(ingest.body)).toEqual({ error: { code: "unavailable", message: expect.any(String) } });
    const webhook = during.find((d) => d.what === "twilio webhook")!;
    expect(webhook.status).toBeGreaterThanOrEqual(500);
    for (const answer of during) expect(answer.body).not.toMatch(/\n\s+at |node_modules|ECONNREFUSED/);
    // The refused event left nothing behind, and sent again it is accepted and sent once.
    const { rows } = await s.sql.query("SELECT 1 FROM herald.events WHERE event_id = 'during-outage'");
    expect(rows).toEqual([]);
    expect((await api.postEvent(latecomer)).status).toBe(202);

    const expected = first + 3;
    await s.drain(expected);
    expect(worker.child.exitCode).toBeNull();
    const summary = await s.finish(expected);
    expect(summary).toMatchObject({ notifications: expected, lost: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected });
    expect(summary.duplicates).toBeLessThanOrEqual(summary.duplicate_budget);
  });
});

describe("the LISTEN connections alone terminated", () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await Scenario.open("listen-killed", inject("templateUrl"));
  });
  afterAll(async () => scenario?.close());

  it("listens again on every runner and sends the next wave once, with no fault to budget for", async () => {
    const s = scenario;
    await seedWorkload(s.sql, 2 * USERS);
    for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, LATENCY);
    const worker = s.startWorker();
    await s.ready(worker);
    const first = await emitNews(s.sql, USERS, "before");
    await s.drain(first);
    const listeners = await runnerCount(s, worker.pid);
    expect(await listenConnectionsSettle(s, listeners)).toBe(listeners);

    const { rows } = await s.sql.query<{ killed: number }>(
      `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS killed FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'herald-worker' AND query LIKE 'LISTEN %'`,
    );
    expect(rows[0]!.killed).toBe(listeners);
    expect(await listenConnectionsSettle(s, listeners)).toBe(listeners);

    const expected = first + (await emitNews(s.sql, USERS, "after", USERS + 1));
    await s.drain(expected);
    expect(worker.child.exitCode).toBeNull();
    const summary = await s.finish(expected);
    expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, duplicate_budget: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected });
  });
});

/**
 * The worker's graphile-worker runners: one pool id each in its heartbeat. The expected number
 * of LISTEN connections: a runner is started before its listener has connected, so counting
 * the listeners themselves right after start-up could miss one.
 */
async function runnerCount(s: Scenario, pid: number): Promise<number> {
  const { rows } = await s.sql.query<{ n: number }>("SELECT cardinality(pool_ids)::int AS n FROM herald.worker_heartbeats WHERE pid = $1", [pid]);
  return rows[0]!.n;
}

/** The LISTEN connections once they number `expected`, or after 30 s, whatever they number then. */
async function listenConnectionsSettle(s: Scenario, expected: number): Promise<number> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const n = await listenConnections(s);
    if (n === expected || Date.now() > deadline) return n;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Connections of the scenario's workers waiting on LISTEN (one per graphile-worker runner). */
async function listenConnections(s: Scenario): Promise<number> {
  const { rows } = await s.sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = 'herald-worker' AND query LIKE 'LISTEN %'`,
  );
  return rows[0]!.n;
}
