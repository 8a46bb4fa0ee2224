import http from "node:http";
import { parseRule } from "@herald/core";
import { cancelBroadcast, createBroadcast, scheduleKeyedJob, transitionBroadcast } from "@herald/db";
import pg from "pg";
import { copyBenchDatabase, createBenchDatabase, settleDrops, type BenchDatabase } from "../bench-database.ts";
import { describePreset, presetEnv } from "../bench-env.ts";
import { createAdminApiKey, sleep, startHerald, type HeraldProcess } from "../herald-process.ts";
import { assertHeraldOnClockServer, checkedLatency, CLOCK, configureOtp, fnv1a, OTP_TYPE, request } from "../otp-probe.ts";
import { mulberry32, randomInt } from "../random.ts";
import { interleave, type Scale, type Scenario, type ScenarioContext, type ScenarioOutcome } from "../scenario.ts";
import { percentile, summarize } from "../stats.ts";
import { prepareWorkload } from "../workload.ts";

const LOADED = "Herald under a broadcast";
const IDLE = "Herald idle";
/** Broadcast audience per loaded round. */
const SIZES: Record<Scale | "tiny", number> = { small: 1_000, medium: 200_000, large: 1_000_000, tiny: 1_000 };
const EVENTS_PER_SECOND = 5;
/**
 * Every round posts at least this many events; a loaded round goes on until its broadcast is
 * sent. Ten at small and tiny: each round takes at least MIN_EVENTS ÷ 5 s, and eight of them
 * (four pairs) at 20 were a third of small's two minutes.
 */
const MIN_EVENTS: Record<Scale | "tiny", number> = { small: 10, medium: 20, large: 20, tiny: 10 };
/** OTP recipients: the first users, round after round. */
const OTP_USERS = 1_000;
const POLL_MS = 20;
const SEND_TIMEOUT_MS = 60_000;
/**
 * How long a loaded round probes at most. The target is the critical lane while the fan-out and
 * its sends run, not the time a million sends take (about 15 minutes here, three rounds of
 * which would be the whole run): a broadcast still sending after this is canceled.
 */
const PROBE_WINDOW_MS = 180_000;
const TARGET_P95_MS = 2_000;

interface RoundSample {
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  events: number;
  /** Loaded rounds: the broadcast's notifications per second, start job → last one settled. */
  bulkPerSecond: number | null;
  /** The broadcast was still sending when the probe window ended, and was canceled. */
  canceled: boolean;
}

interface Setup {
  memberId: string;
}

export const criticalLoadScenario: Scenario = {
  name: "critical-load",
  summary:
    "p95 event in → sandbox send of critical SMS posted at 5/s while a broadcast to N users fans out and its bulk emails are sent (HERALD_ROLE=all), vs the same probe on the idle server",
  run: runCriticalLoad,
};

async function runCriticalLoad(ctx: ScenarioContext): Promise<ScenarioOutcome> {
  const size = ctx.tiny ? SIZES.tiny : SIZES[ctx.scale];
  const minEvents = MIN_EVENTS[ctx.tiny ? "tiny" : ctx.scale];
  const databases: BenchDatabase[] = [];
  let current: RoundServer | null = null;
  let peakRssMb = 0;
  const closeRound = async () => {
    if (!current) return;
    const round = current;
    current = null;
    peakRssMb = Math.max(peakRssMb, round.herald.peakRssMb());
    await round.close(ctx);
    // A copy holds up to a million notifications and their jobs: gone before the next is made.
    if (!ctx.keepDatabases) await round.db.drop();
  };
  try {
    const source = await createBenchDatabase(ctx.cluster.url, "critical_load");
    databases.push(source);
    const setup = await prepareSource(source, size);
    let copies = 0;
    // Each idle round (the first of a pair) starts a fresh copy of the prepared database and a
    // fresh server when the pair before it canceled its broadcast (as a million-user one always
    // is), and the loaded round after it runs on the same pair. A broadcast that finished leaves
    // nothing behind, so the next pair keeps its server (at small, two server starts saved).
    let canceledBefore = true;
    const serverForPair = async (): Promise<RoundServer> => {
      if (current && !canceledBefore) return current;
      await closeRound();
      await settleDrops();
      const db = await copyBenchDatabase(ctx.cluster.url, source, `critical_load_${++copies}`);
      current = await startRoundServer(ctx, db, setup).catch(async (error: unknown) => {
        if (!ctx.keepDatabases) await db.drop();
        throw error;
      });
      return current;
    };

    const samples = await interleave<RoundSample>(
      [
        {
          name: IDLE,
          run: async (_n, round) => {
            const server = await serverForPair();
            await untilSettled(server.probe.pool);
            return probeRound(server.probe, `idle-${round}`, null);
          },
        },
        {
          name: LOADED,
          run: async (n, round) => {
            const server = current!;
            await untilSettled(server.probe.pool);
            const broadcast = await startBroadcast(server.probe.pool, setup, n);
            const sample = await probeRound(server.probe, `loaded-${round}`, broadcast);
            canceledBefore = sample.canceled;
            return sample;
          },
        },
      ],
      {
        size,
        // No warm-up pair: the first measured pair starts a fresh server on a fresh copy, so one
        // would warm nothing a measured round runs on (it cost a tenth-size broadcast and two probes).
        warmupSize: 0,
        repeats: ctx.repeats,
        log: ctx.log,
        describe: (s) =>
          `p50 ${s.p50Ms.toFixed(0)} ms, p95 ${s.p95Ms.toFixed(0)} ms, max ${s.maxMs.toFixed(0)} ms over ${s.events} events` +
          (s.bulkPerSecond === null ? "" : ` (broadcast ${Math.round(s.bulkPerSecond).toLocaleString("en")} notifications/s)`),
      },
    );
    await closeRound();
    const loaded = samples.get(LOADED)!;
    const idle = samples.get(IDLE)!;
    const pair = (pick: (s: RoundSample) => number) => ({ herald: summarize(loaded.map(pick)), baseline: { name: IDLE, summary: summarize(idle.map(pick)) } });
    const bulk = summarize(loaded.map((s) => s.bulkPerSecond!));
    return {
      notes: [
        `HERALD_ROLE=all, sandbox providers with no rate limit and no latency, delivery callbacks delayed 1 h; ${describePreset(ctx.env.preset)}.`,
        `Loaded round: a broadcast (email, bulk lane, a published template) to ${size.toLocaleString("en")} users is scheduled "now" through ` +
          `its start_broadcast job, so the server's own worker fans it out and sends it; meanwhile OTP events (critical SMS, type ${OTP_TYPE}) are ` +
          `posted at ${EVENTS_PER_SECOND}/s, open loop, until every notification of the broadcast has settled or ${PROBE_WINDOW_MS / 1000} s have passed, ` +
          `when the broadcast is canceled (at least ${minEvents} events). ` +
          `Idle round: ${minEvents} events at the same rate on the settled server.`,
        `A pair of rounds (idle, then loaded) after a canceled broadcast runs on its own copy of the prepared database (CREATE DATABASE … ` +
          `TEMPLATE) and a freshly started server: a broadcast canceled at the window's end leaves its remaining rows' cancellation to vacuum ` +
          `and roll up, and a later round on the same database measured that cleanup rather than the fan-out (see docs/decisions/0016). ` +
          `After a broadcast that finished, the next pair keeps the server. No warm-up pair: it would warm a server no measured round runs on.`,
        `Latency = the sandbox message's created_at minus clock_timestamp() read just before the POST, both on Postgres's clock, checked against ` +
          `the bench's own timer. Broadcast throughput while probed: ${Math.round(bulk.median).toLocaleString("en")} notifications/s ` +
          `(${Math.round(bulk.min).toLocaleString("en")}–${Math.round(bulk.max).toLocaleString("en")}).`,
      ],
      metrics: [
        { metric: "critical p50 (ms)", ...pair((s) => s.p50Ms), verdict: null },
        { metric: "critical p95 (ms)", ...pair((s) => s.p95Ms), verdict: { target: `≤ ${TARGET_P95_MS} ms under load`, met: summarize(loaded.map((s) => s.p95Ms)).median <= TARGET_P95_MS } },
        { metric: "critical max (ms)", ...pair((s) => s.maxMs), verdict: null },
        { metric: "peak RSS (MiB)", herald: summarize([peakRssMb]), baseline: null, verdict: null },
      ],
      peakRssMb,
    };
  } finally {
    await closeRound().catch((e: unknown) => ctx.log(`  critical-load: stopping Herald failed: ${String(e)}`));
    if (!ctx.keepDatabases) {
      for (const db of databases) await db.drop().catch((e: unknown) => ctx.log(`  critical-load: dropping ${db.name} failed: ${String(e)}`));
    }
  }
}

/** The users, template and member every round starts from; the pool is closed, so the database can be copied. */
async function prepareSource(source: BenchDatabase, size: number): Promise<Setup> {
  const pool = new pg.Pool({ connectionString: source.url, max: 3, application_name: "herald-bench" });
  try {
    return await prepareWorkload(pool, {
      category: "news",
      template: {
        key: "bench.news",
        name: "Bench news",
        channels: ["email"],
        body: { variables: [], content: { en: { email: { subject: "News for {{ user.id }}", html: "<h1>News</h1><p>Everything is <b>20%</b> off this week.</p>" } } } },
      },
      users: { count: size, phone: true, rank: true },
    });
  } finally {
    await pool.end();
  }
}

/** One copy's server and the connections that probe it. */
interface RoundServer {
  db: BenchDatabase;
  herald: HeraldProcess;
  probe: Probe;
  close(ctx: ScenarioContext): Promise<void>;
}

async function startRoundServer(ctx: ScenarioContext, db: BenchDatabase, setup: Setup): Promise<RoundServer> {
  const [herald, key] = await Promise.all([
    startHerald({
      databaseUrl: db.url,
      role: "all",
      childBase: ctx.env.childBase,
      // Sends as fast as the machine allows (the load is the point); callbacks an hour later.
      env: { ...presetEnv(ctx.env.preset), HERALD_SANDBOX_DELIVERY_DELAY_MS: "3600000", HERALD_SANDBOX_RATE_PER_SECOND: "1000000" },
    }),
    createAdminApiKey(db.url),
  ]);
  const pool = new pg.Pool({ connectionString: db.url, max: 3, application_name: "herald-bench" });
  const clock = new pg.Client({ connectionString: db.url, application_name: "herald-bench-clock" });
  const close = async (c: ScenarioContext) => {
    await clock.end().catch(() => undefined);
    await pool.end().catch(() => undefined);
    await herald.stop().catch((e: unknown) => c.log(`  critical-load: stopping Herald failed: ${String(e)}`));
  };
  try {
    const authorization = `Bearer ${key}`;
    await configureOtp(herald.baseUrl, authorization);
    await clock.connect();
    await assertHeraldOnClockServer(clock);
    return { db, herald, probe: {
        baseUrl: herald.baseUrl,
        authorization,
        clock,
        pool,
        seed: ctx.seed,
        memberId: setup.memberId,
        minEvents: MIN_EVENTS[ctx.tiny ? "tiny" : ctx.scale],
      }, close };
  } catch (error) {
    await close(ctx);
    throw error;
  }
}

interface LiveBroadcast {
  id: string;
  /** Postgres's clock when the start job was added. */
  startedAt: number;
  audience: number;
}

/**
 * A broadcast to the first `audience` users (a segment of its own: has an email and rank below
 * it), moved to scheduled and handed to the server's start_broadcast job, as "Send now" does.
 */
async function startBroadcast(pool: pg.Pool, setup: Setup, audience: number): Promise<LiveBroadcast> {
  const rule = parseRule({ kind: "and", children: [{ kind: "has_email" }, { kind: "attribute", attribute: "rank", op: "lt", value: audience }] });
  if (!rule.ok) throw new Error("the bench's segment rule does not parse");
  const segment = await pool.query<{ id: string }>("INSERT INTO herald.segments (name, rule) VALUES ($1, $2::jsonb) RETURNING id::text", [
    `first ${audience} (${Date.now()})`,
    JSON.stringify(rule.rule),
  ]);
  const id = await createBroadcast(
    pool,
    { name: "bench", segmentId: segment.rows[0]!.id, templateKey: "bench.news", variants: [{ version: 1, percent: 100 }], channels: ["email"], category: "news", lane: "bulk", holdoutPercent: 0, throttlePerMinute: null, data: {} },
    setup.memberId,
  );
  const now = new Date();
  const moved = await transitionBroadcast(pool, id, ["draft"], "scheduled", { schedule: { kind: "now" }, startsAt: now, memberId: setup.memberId });
  if (!moved) throw new Error(`broadcast ${id} did not move to scheduled`);
  const { rows } = await pool.query<{ t: number }>(CLOCK);
  await scheduleKeyedJob(pool, "start_broadcast", { broadcastId: id }, now, `broadcast:${id}`);
  return { id, startedAt: rows[0]!.t, audience };
}

/**
 * Settled: the fan-out is over and none of the broadcast's rows is pending; returns Postgres's
 * clock at the last row's update. The last update is read only once settled: over a million rows
 * it is a scan, and asked with every probe event it slowed the very sends being measured (the
 * broadcast fell from 2,500 to 260 notifications/s).
 */
async function broadcastSettled(pool: pg.Pool, b: LiveBroadcast): Promise<number | null> {
  const { rows } = await pool.query<{ done: boolean }>(
    `SELECT b.fanout_done_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM herald.notifications n WHERE n.broadcast_id = b.id AND n.status = 'pending') AS done
       FROM herald.broadcasts b WHERE b.id = $1`,
    [b.id],
  );
  if (!rows[0]!.done) return null;
  const ended = await pool.query<{ ended: number }>(
    "SELECT extract(epoch FROM max(updated_at))::float8 AS ended FROM herald.notifications WHERE broadcast_id = $1",
    [b.id],
  );
  return ended.rows[0]!.ended;
}

/** A broadcast still sending: its rows settled so far per second since its start job was added. */
async function settledPerSecond(pool: pg.Pool, b: LiveBroadcast): Promise<number> {
  const { rows } = await pool.query<{ settled: number; now: number }>(
    `SELECT count(*) FILTER (WHERE status <> 'pending')::int AS settled, extract(epoch FROM clock_timestamp())::float8 AS now
       FROM herald.notifications WHERE broadcast_id = $1`,
    [b.id],
  );
  return rows[0]!.settled / (rows[0]!.now - b.startedAt);
}

interface Probe {
  baseUrl: string;
  authorization: string;
  clock: pg.Client;
  pool: pg.Pool;
  seed: number;
  /** Who cancels a broadcast the window ended. */
  memberId: string;
  minEvents: number;
}

interface Posted {
  id: string;
  eventId: string;
  phone: string;
  code: string;
  before: number;
  clientStart: number;
}

/**
 * OTP events at EVENTS_PER_SECOND, open loop (a slow answer does not delay the next event), for
 * `minEvents` or — under a broadcast — until it has settled or PROBE_WINDOW_MS have passed (then
 * it is canceled); then waits for every send.
 */
async function probeRound(p: Probe, round: string, broadcast: LiveBroadcast | null): Promise<RoundSample> {
  const random = mulberry32(p.seed ^ fnv1a(`critical-load-${round}`));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const url = new URL("/api/v1/events", p.baseUrl);
  const posted: Posted[] = [];
  const inFlight: Array<Promise<void>> = [];
  let bulkEnded: number | null = null;
  let bulkRate: number | null = null;
  try {
    await request(agent, new URL("/healthz", p.baseUrl), "GET", {}, null);
    const started = performance.now();
    for (let i = 0; ; i++) {
      const due = started + (i * 1000) / EVENTS_PER_SECOND;
      await sleep(Math.max(0, due - performance.now()));
      // Asked once a second: the question is cheap only while many rows are pending.
      const ask = i >= p.minEvents && (broadcast === null || i % EVENTS_PER_SECOND === 0);
      if (ask && (broadcast === null || (bulkEnded = await broadcastSettled(p.pool, broadcast)) !== null)) break;
      if (ask && broadcast && performance.now() - started >= PROBE_WINDOW_MS) {
        bulkRate = await settledPerSecond(p.pool, broadcast);
        await cancelBroadcast(p.pool, broadcast.id, p.memberId);
        break;
      }
      const post = postOne(p, agent, url, round, i, random, posted);
      // Handled at once, reported by the Promise.all below: left unhandled until then, one failed
      // post ended the whole bench process instead of this scenario.
      post.catch(() => undefined);
      inFlight.push(post);
    }
    await Promise.all(inFlight);
    const latencies = await collectSends(p.pool, posted);
    return {
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      maxMs: percentile(latencies, 100),
      events: posted.length,
      bulkPerSecond: broadcast && bulkEnded !== null ? broadcast.audience / (bulkEnded - broadcast.startedAt) : bulkRate,
      canceled: broadcast !== null && bulkEnded === null,
    };
  } finally {
    agent.destroy();
  }
}

async function postOne(p: Probe, agent: http.Agent, url: URL, round: string, i: number, random: () => number, posted: Posted[]): Promise<void> {
  const user = i % OTP_USERS;
  const code = String(100_000 + randomInt(random, 900_000));
  const eventId = `critical-load-${round}-${i}`;
  const body = JSON.stringify({ eventId, type: OTP_TYPE, userId: `u${user}`, data: { code } });
  const clientStart = performance.now();
  const before = (await p.clock.query<{ t: number }>(CLOCK)).rows[0]!.t;
  const response = await request(agent, url, "POST", { authorization: p.authorization }, body);
  if (response.status !== 202) throw new Error(`POST /api/v1/events answered ${response.status} for ${eventId}: ${response.body.slice(0, 300)}`);
  const notifications = (JSON.parse(response.body) as { notifications?: Array<{ id: string; channel: string }> }).notifications ?? [];
  if (notifications.length !== 1 || notifications[0]!.channel !== "sms") throw new Error(`event ${eventId} made ${JSON.stringify(notifications)}, expected one sms notification`);
  posted.push({ id: notifications[0]!.id, eventId, phone: `+1555${String(user).padStart(7, "0")}`, code, before, clientStart });
}

/** Waits for every posted event's sandbox message and returns the latencies; a skipped or failed OTP fails the run. */
async function collectSends(pool: pg.Pool, posted: Posted[]): Promise<Float64Array> {
  const latencies = new Float64Array(posted.length);
  const waiting = new Map(posted.map((e, i) => [e.id, i]));
  const deadline = Date.now() + SEND_TIMEOUT_MS;
  while (waiting.size > 0) {
    const ids = [...waiting.keys()];
    const phones = [...new Set(ids.map((id) => posted[waiting.get(id)!]!.phone))];
    // The recipient index finds the OTP's message among the broadcast's many.
    const { rows } = await pool.query<{ id: string; at: number; body: string }>(
      `SELECT s.notification_id::text AS id, extract(epoch FROM s.created_at)::float8 AS at, s.body
         FROM herald.sandbox_messages s WHERE s.recipient = ANY ($1::text[]) AND s.notification_id = ANY ($2::bigint[])`,
      [phones, ids],
    );
    const seenAt = performance.now();
    for (const r of rows) {
      const i = waiting.get(r.id);
      if (i === undefined) continue;
      const e = posted[i]!;
      if (r.body !== `code ${e.code}`) throw new Error(`the sandbox message of ${e.eventId} reads ${JSON.stringify(r.body)}, expected "code ${e.code}"`);
      latencies[i] = checkedLatency((r.at - e.before) * 1000, seenAt - e.clientStart, `event ${e.eventId}`);
      waiting.delete(r.id);
    }
    if (waiting.size === 0) break;
    const { rows: stuck } = await pool.query<{ id: string; status: string; dispatch_state: string; reason: string | null }>(
      "SELECT id::text, status, dispatch_state, reason FROM herald.notifications WHERE id = ANY ($1::bigint[]) AND status <> 'pending' AND status <> 'sent'",
      [[...waiting.keys()]],
    );
    if (stuck[0]) throw new Error(`OTP notification ${stuck[0].id} is ${stuck[0].status}/${stuck[0].dispatch_state} (${stuck[0].reason ?? "no reason"}) with no sandbox message`);
    if (Date.now() > deadline) throw new Error(`${waiting.size} OTP notifications were not sent within ${SEND_TIMEOUT_MS} ms of the round's end`);
    await sleep(POLL_MS);
  }
  return latencies;
}

/** Nothing of an earlier round left: no notification to dispatch and no send job queued or running. */
async function untilSettled(pool: pg.Pool): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const { rows } = await pool.query<{ idle: boolean }>(
      `SELECT NOT EXISTS (SELECT 1 FROM herald.notifications WHERE dispatch_state <> 'done')
          AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs WHERE task_identifier IN ('send_push', 'send_email', 'send_sms', 'start_broadcast')) AS idle`,
    );
    if (rows[0]!.idle) return;
    if (Date.now() > deadline) throw new Error("Herald did not settle within 10 minutes of the previous round");
    await sleep(200);
  }
}
