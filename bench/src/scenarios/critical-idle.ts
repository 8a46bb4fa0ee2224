import http from "node:http";
import pg from "pg";
import { HERALD_RUNNER_POLL_INTERVAL_MS, startGraphileLatencyProbe, type GraphileLatencyProbe } from "../../baselines/graphile-worker-latency.ts";
import { createBenchDatabase, type BenchDatabase } from "../bench-database.ts";
import { describePreset, presetEnv } from "../bench-env.ts";
import { createAdminApiKey, sleep, startHerald, type HeraldProcess } from "../herald-process.ts";
import { assertHeraldOnClockServer, checkedLatency, CATEGORY, CLOCK, configureOtp, fnv1a, OTP_TYPE, request } from "../otp-probe.ts";
import { mulberry32, randomInt } from "../random.ts";
import { interleave, type Scale, type Scenario, type ScenarioContext, type ScenarioOutcome } from "../scenario.ts";
import { percentile, summarize } from "../stats.ts";

const HERALD = "Herald POST → sandbox send";
const BASELINE = "graphile-worker add_job → start";
const SIZES: Record<Scale | "tiny", number> = { small: 20, medium: 200, large: 500, tiny: 10 };
const POLL_MS = 5;
const EVENT_TIMEOUT_MS = 30_000;
const TARGET_P95_MS = 250;

interface LatencySample {
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Herald only: where the time goes, each stage's p50 over the round. */
  stages: Stages | null;
}

/** Herald's stages on Postgres's clock: before the POST → notification row → attempt recorded → sandbox insert. */
interface Stages {
  /** To the notification's created_at (the ingest transaction). */
  ingestMs: number;
  /** From there to first_attempt_at: pump, job, pickup, claim, gates, the attempt's commit. */
  toAttemptMs: number;
  /** From there to the sandbox message: the provider call. */
  sendMs: number;
}

export const criticalIdleScenario: Scenario = {
  name: "critical-idle",
  summary:
    "p95 event in → sandbox send of a critical SMS on an idle system (HERALD_ROLE=all, one event at a time) vs graphile-worker's add_job → task start on an idle runner",
  run: runCriticalIdle,
};

async function runCriticalIdle(ctx: ScenarioContext): Promise<ScenarioOutcome> {
  const size = ctx.tiny ? SIZES.tiny : SIZES[ctx.scale];
  const warmupSize = Math.max(10, Math.round(size / 10));
  const users = Math.max(size, warmupSize);
  const preset = ctx.env.preset;
  const databases: BenchDatabase[] = [];
  let herald: HeraldProcess | null = null;
  let baseline: GraphileLatencyProbe | null = null;
  // Postgres's clock, read just before each POST, and the connection that watches for the send.
  let clock: pg.Client | null = null;
  let watch: pg.Client | null = null;
  try {
    const db = await createBenchDatabase(ctx.cluster.url, "critical_idle");
    databases.push(db);
    // The baseline's jobs go to a database of their own: on Herald's, every add_job would wake its runners.
    const gwDb = await createBenchDatabase(ctx.cluster.url, "critical_idle_gw", { herald: false });
    databases.push(gwDb);

    watch = new pg.Client({ connectionString: db.url, application_name: "herald-bench" });
    await watch.connect();
    // Users with a phone exist beforehand, as they would in a running product.
    await watch.query(
      `INSERT INTO herald.users (external_id, phone)
       SELECT 'u' || i, '+1555' || lpad(i::text, 7, '0') FROM generate_series(0, $1::int - 1) i`,
      [users],
    );
    await watch.query("ANALYZE herald.users");

    const [server, key] = await Promise.all([
      startHerald({
        databaseUrl: db.url,
        role: "all",
        childBase: ctx.env.childBase,
        // Delivery callbacks land an hour later: nothing but the event under test runs.
        env: { ...presetEnv(preset), HERALD_SANDBOX_DELIVERY_DELAY_MS: "3600000" },
      }),
      createAdminApiKey(db.url),
    ]);
    herald = server;
    const authorization = `Bearer ${key}`;
    await configureOtp(server.baseUrl, authorization);

    clock = new pg.Client({ connectionString: db.url, application_name: "herald-bench-clock" });
    await clock.connect();
    await assertHeraldOnClockServer(clock);
    baseline = await startGraphileLatencyProbe(gwDb.url, { concurrency: preset.smsConcurrency });
    const probe = baseline;
    const round = { baseUrl: server.baseUrl, authorization, clock, watch, seed: ctx.seed, users };

    const samples = await interleave<LatencySample>(
      [
        { name: HERALD, run: (n, name) => heraldRound(round, n, name) },
        {
          name: BASELINE,
          run: async (n, name) => {
            const latencies = new Float64Array(n);
            for (let i = 0; i < n; i++) {
              const { latencyMs, clientMs } = await probe.measureOne(`${name}-${i}`, EVENT_TIMEOUT_MS);
              latencies[i] = checkedLatency(latencyMs, clientMs, `graphile-worker job ${name}-${i}`);
            }
            return { ...latencySummary(latencies), stages: null };
          },
        },
      ],
      {
        size,
        warmupSize,
        repeats: ctx.repeats,
        log: ctx.log,
        describe: (s) =>
          `p50 ${s.p50Ms.toFixed(1)} ms, p95 ${s.p95Ms.toFixed(1)} ms, max ${s.maxMs.toFixed(1)} ms` +
          (s.stages
            ? ` (stage p50s: ingest ${s.stages.ingestMs.toFixed(1)}, → attempt ${s.stages.toAttemptMs.toFixed(1)}, → send ${s.stages.sendMs.toFixed(1)} ms)`
            : ""),
      },
    );
    await checkEverySent(watch, warmupSize + ctx.repeats * size);
    const peakRssMb = server.peakRssMb();

    const h = samples.get(HERALD)!;
    const b = samples.get(BASELINE)!;
    const pair = (pick: (s: LatencySample) => number) => ({ herald: summarize(h.map(pick)), baseline: summarize(b.map(pick)) });
    const p50 = pair((s) => s.p50Ms);
    const p95 = pair((s) => s.p95Ms);
    const max = pair((s) => s.maxMs);
    const stage = (pick: (s: Stages) => number) => summarize(h.map((s) => pick(s.stages!))).median.toFixed(1);
    return {
      notes: [
        `Herald: HERALD_ROLE=all (API and workers in one process: ingest wakes the pump at once), HERALD_MODE=development (sandbox providers, ` +
          `zero latency), delivery callbacks delayed 1 h so nothing else runs; ${describePreset(preset)}.`,
        `Type ${OTP_TYPE}: one step, sms in category ${CATEGORY} on the critical lane, inline body "code {{ data.code }}"; configured through REST ` +
          `with an admin key. ${users.toLocaleString("en-US")} users with a phone created beforehand (SQL).`,
        `${size.toLocaleString("en-US")} events per round (warm-up ${warmupSize}), sent one at a time over one keep-alive connection, each only once ` +
          `the previous one's job has completed and no notification is in flight. Latency = sandbox_messages.created_at (the send's insert) minus ` +
          `clock_timestamp() read just before the POST, both on Postgres's clock (the clock connection sees Herald's own connections to this ` +
          `uniquely named database; every span is checked to fit within the bench's own timer). The send is watched for every ${POLL_MS} ms; ` +
          `the poll only decides when the next event goes, it is not in the measurement.`,
        `graphile-worker: one runner on a database of its own, concurrency ${preset.smsConcurrency} (Herald's sms runner), poll interval ` +
          `${HERALD_RUNNER_POLL_INTERVAL_MS / 1000} s and batched completion as Herald's runners (pickup through LISTEN/NOTIFY); one add_job at a time, ` +
          `latency = clock_timestamp() read by the task as it starts minus clock_timestamp() just before add_job; same N.`,
        `Round p50/p95/max are nearest-rank over that round's ${size.toLocaleString("en-US")} events; the table shows their median (min–max) over rounds.`,
        `Where Herald's time goes (p50 per stage, median over rounds, Postgres's clock): ingest ${stage((s) => s.ingestMs)} ms (POST start → the ` +
          `notification's created_at), → attempt ${stage((s) => s.toAttemptMs)} ms (→ first_attempt_at: pump, job, pickup, claim, gates, the attempt's ` +
          `commit), → send ${stage((s) => s.sendMs)} ms (→ the sandbox insert).`,
      ],
      metrics: [
        { metric: "p50 latency (ms)", herald: p50.herald, baseline: { name: BASELINE, summary: p50.baseline }, verdict: null },
        {
          metric: "p95 latency (ms)",
          herald: p95.herald,
          baseline: { name: BASELINE, summary: p95.baseline },
          verdict: { target: `≤ ${TARGET_P95_MS} ms`, met: p95.herald.median <= TARGET_P95_MS },
        },
        { metric: "max latency (ms)", herald: max.herald, baseline: { name: BASELINE, summary: max.baseline }, verdict: null },
        { metric: "peak RSS (MiB)", herald: summarize([peakRssMb]), baseline: null, verdict: null },
      ],
      peakRssMb,
    };
  } finally {
    // Each step on its own: one failing must not leave the server or a database behind.
    await clock?.end().catch(() => undefined);
    await watch?.end().catch(() => undefined);
    await baseline?.stop().catch((e: unknown) => ctx.log(`  critical-idle: stopping the graphile-worker runner failed: ${String(e)}`));
    await herald?.stop().catch((e: unknown) => ctx.log(`  critical-idle: stopping Herald failed: ${String(e)}`));
    if (!ctx.keepDatabases) {
      for (const db of databases) await db.drop().catch((e: unknown) => ctx.log(`  critical-idle: dropping ${db.name} failed: ${String(e)}`));
    }
  }
}

interface HeraldRoundContext {
  baseUrl: string;
  authorization: string;
  clock: pg.Client;
  watch: pg.Client;
  seed: number;
  users: number;
}

const WATCH = {
  name: "bench_watch_send",
  text: `SELECT n.status, n.dispatch_state, n.reason, s.body, extract(epoch FROM s.created_at)::float8 AS sent_at,
                extract(epoch FROM n.created_at)::float8 AS created_at, extract(epoch FROM n.first_attempt_at)::float8 AS attempted_at
           FROM herald.notifications n LEFT JOIN herald.sandbox_messages s ON s.notification_id = n.id
          WHERE n.id = $1`,
};
/** Nothing in flight: no notification left to dispatch and no send job queued or running. */
const IDLE = {
  name: "bench_idle",
  text: `SELECT NOT EXISTS (SELECT 1 FROM herald.notifications WHERE dispatch_state <> 'done')
            AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs WHERE task_identifier IN ('send_push', 'send_email', 'send_sms')) AS idle`,
};

/**
 * One Herald round: n OTP events, one at a time. Each goes when Herald is idle again, and its
 * latency is the sandbox message's created_at minus clock_timestamp() read just before its POST.
 */
async function heraldRound(h: HeraldRoundContext, n: number, round: string): Promise<LatencySample> {
  const random = mulberry32(h.seed ^ fnv1a(`critical-idle-${round}`));
  const url = new URL("/api/v1/events", h.baseUrl);
  // One keep-alive socket per round, opened before the first event (the server drops idle ones after 5 s).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await request(agent, new URL("/healthz", h.baseUrl), "GET", {}, null);
    const latencies = new Float64Array(n);
    const stages = { ingest: new Float64Array(n), toAttempt: new Float64Array(n), send: new Float64Array(n) };
    for (let i = 0; i < n; i++) {
      const code = String(100_000 + randomInt(random, 900_000));
      const eventId = `critical-idle-${round}-${i}`;
      const body = JSON.stringify({ eventId, type: OTP_TYPE, userId: `u${i % h.users}`, data: { code } });
      await untilIdle(h.watch, eventId);

      const clientStart = performance.now();
      const before = (await h.clock.query<{ t: number }>(CLOCK)).rows[0]!.t;
      const response = await request(agent, url, "POST", { authorization: h.authorization }, body);
      if (response.status !== 202) throw new Error(`POST /api/v1/events answered ${response.status} for ${eventId}: ${response.body.slice(0, 300)}`);
      const notifications = (JSON.parse(response.body) as { notifications?: Array<{ id: string; channel: string }> }).notifications ?? [];
      if (notifications.length !== 1 || notifications[0]!.channel !== "sms") {
        throw new Error(`event ${eventId} made ${JSON.stringify(notifications)}, expected one sms notification`);
      }
      const id = notifications[0]!.id;

      const sent = await watchForSend(h.watch, id, eventId);
      if (sent.body !== `code ${code}`) throw new Error(`the sandbox message of ${eventId} reads ${JSON.stringify(sent.body)}, expected "code ${code}"`);
      latencies[i] = checkedLatency((sent.at - before) * 1000, performance.now() - clientStart, `event ${eventId}`);
      stages.ingest[i] = (sent.createdAt - before) * 1000;
      stages.toAttempt[i] = (sent.attemptedAt - sent.createdAt) * 1000;
      stages.send[i] = (sent.at - sent.attemptedAt) * 1000;
    }
    return {
      ...latencySummary(latencies),
      stages: { ingestMs: percentile(stages.ingest, 50), toAttemptMs: percentile(stages.toAttempt, 50), sendMs: percentile(stages.send, 50) },
    };
  } finally {
    agent.destroy();
  }
}

/** Polls every POLL_MS until the notification's sandbox message exists; fails at once if it will not come. */
async function watchForSend(watch: pg.Client, id: string, eventId: string): Promise<{ at: number; body: string; createdAt: number; attemptedAt: number }> {
  const deadline = Date.now() + EVENT_TIMEOUT_MS;
  for (;;) {
    const { rows } = await watch.query<{
      status: string;
      dispatch_state: string;
      reason: string | null;
      body: string | null;
      sent_at: number | null;
      created_at: number;
      attempted_at: number | null;
    }>({ ...WATCH, values: [id] });
    const r = rows[0];
    if (!r) throw new Error(`notification ${id} of ${eventId} does not exist`);
    // The attempt commits before the provider is called, so a sent notification has its first_attempt_at.
    if (r.sent_at !== null) return { at: r.sent_at, body: r.body ?? "", createdAt: r.created_at, attemptedAt: r.attempted_at ?? r.sent_at };
    // An idle system sends a critical OTP on its first attempt; anything else is a broken run, not a slow one.
    if (r.status !== "pending" || ["retry_wait", "deferred", "paused"].includes(r.dispatch_state)) {
      throw new Error(`notification ${id} of ${eventId} is ${r.status}/${r.dispatch_state}${r.reason ? ` (${r.reason})` : ""} with no sandbox message`);
    }
    if (Date.now() > deadline) throw new Error(`notification ${id} of ${eventId} was not sent within ${EVENT_TIMEOUT_MS} ms (${r.status}/${r.dispatch_state})`);
    await sleep(POLL_MS);
  }
}

async function untilIdle(watch: pg.Client, next: string): Promise<void> {
  const deadline = Date.now() + EVENT_TIMEOUT_MS;
  while (!(await watch.query<{ idle: boolean }>(IDLE)).rows[0]!.idle) {
    if (Date.now() > deadline) throw new Error(`Herald was still busy ${EVENT_TIMEOUT_MS} ms after the event before ${next}`);
    await sleep(POLL_MS);
  }
}

function latencySummary(latencies: Float64Array): Omit<LatencySample, "stages"> {
  return { p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95), maxMs: percentile(latencies, 100) };
}

/** Every event made one notification and every one was sent exactly once: a fast wrong answer is no result. */
async function checkEverySent(watch: pg.Client, events: number): Promise<void> {
  const { rows } = await watch.query<{ events: number; sent: number; messages: number; notifications: number }>(
    `SELECT (SELECT count(*) FROM herald.events)::int AS events, (SELECT count(*) FROM herald.notifications)::int AS notifications,
            (SELECT count(*) FROM herald.notifications WHERE status = 'sent' AND lane = 'critical')::int AS sent,
            (SELECT count(*) FROM herald.sandbox_messages)::int AS messages`,
  );
  const r = rows[0]!;
  if (r.events !== events || r.notifications !== events || r.sent !== events || r.messages !== events) {
    throw new Error(`expected ${events} events, critical notifications sent and sandbox messages; found ${JSON.stringify(r)}`);
  }
}

