import { rebuildAnalytics, rollUpAnalytics } from "@herald/db";
import pg from "pg";
import { createBenchDatabase } from "../bench-database.ts";
import { signInAs, timedGet } from "../dashboard-session.ts";
import { startHeraldDuring, type HeraldProcess } from "../herald-process.ts";
import type { Scale, Scenario, ScenarioContext, ScenarioOutcome } from "../scenario.ts";
import { percentile, summarize, type Summary } from "../stats.ts";

const HERALD = "Herald tRPC over the rollup";
const RAW = "GROUP BY over notifications";
/** Notifications spread over the 90 days. */
const SIZES: Record<Scale | "tiny", number> = { small: 50_000, medium: 1_000_000, large: 10_000_000, tiny: 20_000 };
/**
 * Requests per chart per round through tRPC (half at small: its 2 minutes), and raw aggregates
 * per chart per round (each scans the table).
 */
const HERALD_REQUESTS: Record<Scale | "tiny", number> = { small: 20, medium: 40, large: 40, tiny: 20 };
const RAW_QUERIES = 3;
const TARGET_P95_MS = 100;
const TARGET_SPEEDUP = 25;
const DAYS = 90;
const CHUNK = 1_000_000;

export const chartsScenario: Scenario = {
  name: "charts",
  summary:
    "p95 of every 90-day chart of the Analytics page through tRPC over HTTP (HERALD_ROLE=api, rollup built from the event log): the funnel and open-rate series vs the same numbers aggregated from the raw notifications table; the weekly series, a filtered funnel and the two comparisons vs the tRPC floor",
  run: runCharts,
};

/** Every chart the Analytics page draws, by the tRPC call behind it. */
const CHARTS = {
  funnel: "90-day funnel",
  series: "90-day open-rate series, by day",
  seriesWeek: "90-day open-rate series, by week",
  funnelFiltered: "90-day funnel, one channel and one type",
  compareVersion: "90-day comparison of template versions",
  compareBroadcast: "90-day comparison of broadcasts",
} as const;
type Chart = keyof typeof CHARTS;
/** The charts that also have a raw GROUP BY to beat. */
const WITH_RAW = ["funnel", "series"] as const;
/** Broadcasts a quarter of the notifications belong to, for the per-broadcast comparison. */
const BROADCASTS = 12;

type Round = Record<Chart, number[]> & {
  /** system.status, a signed-in procedure that reads one setting: the floor of HTTP, session and tRPC. */
  floor: number[];
};
const emptyRound = (): Round => ({ funnel: [], series: [], seriesWeek: [], funnelFiltered: [], compareVersion: [], compareBroadcast: [], floor: [] });

async function runCharts(ctx: ScenarioContext): Promise<ScenarioOutcome> {
  const size = ctx.tiny ? SIZES.tiny : SIZES[ctx.scale];
  const requests = HERALD_REQUESTS[ctx.tiny ? "tiny" : ctx.scale];
  const db = await createBenchDatabase(ctx.cluster.url, "charts");
  const pool = new pg.Pool({ connectionString: db.url, max: 2, application_name: "herald-bench" });
  let herald: HeraldProcess | null = null;
  try {
    const started = await startHeraldDuring({ databaseUrl: db.url, role: "api", childBase: ctx.env.childBase }, () => generate(pool, size, ctx.log));
    herald = started.herald;
    const generated = started.result;
    const buildStarted = performance.now();
    const built = await rebuildAnalytics(pool, "UTC", 60_000);
    const buildSeconds = (performance.now() - buildStarted) / 1000;
    ctx.log(`  rollup rebuilt: ${built.rows.toLocaleString("en")} daily rows from ${built.notifications.toLocaleString("en")} notifications in ${buildSeconds.toFixed(1)} s`);

    const late = await lateOpens(pool);
    ctx.log(`  incremental: ${late.events.toLocaleString("en")} late opens rolled up in ${late.seconds.toFixed(1)} s (${late.batches} batches)`);

    const cookie = await signInAs(pool, "viewer");
    const { rows: today } = await pool.query<{ d: string }>("SELECT (now() AT TIME ZONE 'UTC')::date::text AS d");
    const to = today[0]!.d;
    const from = new Date(Date.parse(`${to}T00:00:00Z`) - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
    const filter = { from, to };
    const call = (path: string, input: unknown) => timedGet(`${herald!.baseUrl}/trpc/analytics.${path}?input=${encodeURIComponent(JSON.stringify(input))}`, cookie);
    const raw = (text: string) => timedQuery(pool, text, [from, to]);

    // The two answers must agree before either is timed.
    const answer = (await (await fetch(`${herald.baseUrl}/trpc/analytics.funnel?input=${encodeURIComponent(JSON.stringify({ filter }))}`, { headers: { cookie } })).json()) as {
      result: { data: { total: { counters: Record<string, number> } } };
    };
    const { rows: rawTotal } = await pool.query(RAW_TOTAL, [from, to]);
    const fromRollup = answer.result.data.total.counters;
    for (const key of ["sent", "delivered", "opened", "clicked"] as const) {
      if (fromRollup[key] !== rawTotal[0][key]) throw new Error(`the rollup says ${key} = ${fromRollup[key]}, the raw table ${rawTotal[0][key]}`);
    }

    // Each comparison must compare something, or its timing would flatter it.
    const compared = async (by: string) =>
      ((await (await fetch(`${herald!.baseUrl}/trpc/analytics.compare?input=${encodeURIComponent(JSON.stringify({ filter, by }))}`, { headers: { cookie } })).json()) as {
        result: { data: { groups: unknown[] } };
      }).result.data.groups.length;
    const [broadcastGroups, versionGroups] = [await compared("broadcast"), await compared("template_version")];
    if (broadcastGroups !== BROADCASTS) throw new Error(`the comparison by broadcast has ${broadcastGroups} groups, not ${BROADCASTS}`);
    if (versionGroups !== 6) throw new Error(`the comparison by template version has ${versionGroups} groups, not 6`);

    const heraldRound = async (n: number): Promise<Round> => {
      const r = emptyRound();
      for (let i = 0; i < n; i++) {
        r.funnel.push(await call("funnel", { filter }));
        r.series.push(await call("series", { filter, granularity: "day" }));
        r.seriesWeek.push(await call("series", { filter, granularity: "week" }));
        r.funnelFiltered.push(await call("funnel", { filter: { ...filter, channel: "email", type: "bench.type1" } }));
        r.compareVersion.push(await call("compare", { filter, by: "template_version" }));
        r.compareBroadcast.push(await call("compare", { filter, by: "broadcast" }));
        r.floor.push(await timedGet(`${herald!.baseUrl}/trpc/system.status`, cookie));
      }
      return r;
    };
    const rawRound = async (n: number): Promise<Round> => {
      const r = emptyRound();
      for (let i = 0; i < n; i++) {
        r.funnel.push(await raw(RAW_FUNNEL));
        r.series.push(await raw(RAW_SERIES));
      }
      return r;
    };
    const describe = (r: Round) =>
      (Object.keys(CHARTS) as Chart[])
        .filter((chart) => r[chart].length > 0)
        .map((chart) => `${chart} p95 ${percentile(r[chart], 95).toFixed(1)} ms`)
        .join(", ") + (r.floor.length ? `, system.status p95 ${percentile(r.floor, 95).toFixed(1)} ms` : "");
    ctx.log(`  warm-up  ${HERALD.padEnd(30)} ${describe(await heraldRound(10))}`);
    ctx.log(`  warm-up  ${RAW.padEnd(30)} ${describe(await rawRound(1))}`);
    const heraldRounds: Round[] = [];
    const rawRounds: Round[] = [];
    for (let round = 1; round <= ctx.repeats; round++) {
      heraldRounds.push(await heraldRound(requests));
      ctx.log(`  round ${round}  ${HERALD.padEnd(30)} ${describe(heraldRounds.at(-1)!)}`);
      rawRounds.push(await rawRound(RAW_QUERIES));
      ctx.log(`  round ${round}  ${RAW.padEnd(30)} ${describe(rawRounds.at(-1)!)}`);
    }
    const p95 = (rounds: Round[], chart: keyof Round): Summary => summarize(rounds.map((r) => percentile(r[chart], 95)));
    const floorSummary = p95(heraldRounds, "floor");
    const floor = { metric: "p95 ms, tRPC floor (system.status)", herald: floorSummary, baseline: null, verdict: null };
    const metrics = (Object.keys(CHARTS) as Chart[]).flatMap((chart) => {
      const h = p95(heraldRounds, chart);
      const label = `p95 ms, ${CHARTS[chart]}`;
      const target = { metric: label, herald: h, baseline: { name: "tRPC floor (system.status)", summary: floorSummary }, verdict: { target: `≤ ${TARGET_P95_MS} ms`, met: h.median <= TARGET_P95_MS } };
      if (!(WITH_RAW as readonly Chart[]).includes(chart)) return [target];
      const b = p95(rawRounds, chart);
      return [
        target,
        { metric: label, herald: h, baseline: { name: RAW, summary: b }, verdict: { target: `≥ ${TARGET_SPEEDUP}× faster than raw`, met: b.median >= TARGET_SPEEDUP * h.median } },
      ];
    });
    return {
      notes: [
        `${size.toLocaleString("en")} notifications over ${DAYS} days (3 channels, 5 types, 3 templates × 2 versions, a quarter of them in ${BROADCASTS} broadcasts), ${generated.events.toLocaleString("en")} events in their log, generated set-based in ${generated.seconds.toFixed(0)} s`,
        `rollup: ${built.rows.toLocaleString("en")} daily rows, rebuilt from the event log by \`pnpm herald analytics:rebuild\`'s function in ${buildSeconds.toFixed(1)} s; both answers checked equal (sent, delivered, opened, clicked) before timing`,
        `incremental: ${late.events.toLocaleString("en")} opens arriving late (1 % of the notifications, up to 90 days after their send) folded in by the roll_up_analytics task's function in ${late.seconds.toFixed(1)} s, ${Math.round(late.events / late.seconds).toLocaleString("en")} events/s, batches of 20,000`,
        `Herald: every chart's GET with a session cookie, one request at a time, ${requests} of each per round: analytics.funnel (whole range, and email × bench.type1), analytics.series by day and by week, analytics.compare by template_version and by broadcast; latency includes HTTP, auth, the role check, zod and JSON`,
        "the floor row is GET /trpc/system.status in the same rounds: a signed-in procedure that reads one setting, so the charts' latency above it is theirs",
        `raw: the same 90-day funnel per channel and per-day series straight from herald.notifications over a pg connection (no HTTP), ${RAW_QUERIES} of each per round`,
      ],
      metrics: [...metrics, floor],
      peakRssMb: herald.peakRssMb(),
    };
  } finally {
    await herald?.stop();
    await pool.end();
    if (!ctx.keepDatabases) await db.drop();
  }
}

const RAW_WHERE = `sent_at >= $1::date::timestamp AT TIME ZONE 'UTC' AND sent_at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'`;
const RAW_TOTAL = `SELECT count(*)::int AS sent, count(delivered_at)::int AS delivered, count(opened_at)::int AS opened, count(clicked_at)::int AS clicked
  FROM herald.notifications WHERE ${RAW_WHERE}`;
const RAW_FUNNEL = `SELECT channel, count(*) AS sent, count(delivered_at) AS delivered, count(opened_at) AS opened, count(clicked_at) AS clicked
  FROM herald.notifications WHERE ${RAW_WHERE} GROUP BY channel`;
const RAW_SERIES = `SELECT (sent_at AT TIME ZONE 'UTC')::date AS day, count(*) AS sent, count(delivered_at) AS delivered, count(opened_at) AS opened,
  count(opened_at)::float8 / nullif(count(delivered_at), 0) AS open_rate, count(delivered_at)::float8 / nullif(count(*), 0) AS delivery_rate
  FROM herald.notifications WHERE ${RAW_WHERE} GROUP BY 1 ORDER BY 1`;

/**
 * Notifications spread evenly over the last 90 days and their event logs, as the pipeline writes
 * them (sent; then delivered or bounced; opens, some twice and some by Apple's prefetch; clicks),
 * set-based in chunks of a million. Outcomes come from a multiplicative hash of the row number,
 * so a scale always generates the same data.
 */
async function generate(pool: pg.Pool, size: number, log: (m: string) => void): Promise<{ events: number; seconds: number }> {
  const started = performance.now();
  await pool.query("INSERT INTO herald.categories (key, label) VALUES ('bench', 'Bench') ON CONFLICT DO NOTHING");
  const { rows: made } = await pool.query<{ first: string }>(
    `WITH t AS (
       INSERT INTO herald.templates (key, name, channels, default_locale) VALUES ('bench.t0', 'Bench', ARRAY['email', 'push', 'sms'], 'en') RETURNING key
     ), s AS (
       INSERT INTO herald.segments (name, rule) VALUES ('bench', '{"kind": "and", "children": []}') RETURNING id
     ), b AS (
       INSERT INTO herald.broadcasts (name, status, segment_id, template_key, variants, channels, category)
       SELECT 'Bench broadcast ' || i, 'sent', s.id, t.key, '[{"version": 1, "percent": 100}]', ARRAY['email', 'push', 'sms'], 'bench'
         FROM generate_series(1, ${BROADCASTS}) AS i, s, t
       RETURNING id
     )
     SELECT min(id)::text AS first FROM b`,
  );
  const firstBroadcast = made[0]!.first;
  let events = 0;
  for (let first = 1; first <= size; first += CHUNK) {
    const last = Math.min(size, first + CHUNK - 1);
    const { rows } = await pool.query<{ events: string }>(
      `WITH made AS (
         INSERT INTO herald.notifications (dedup_key, type, channel, category, status, dispatch_state, template_key, template_version,
                                           created_at, sent_at, delivered_at, opened_at, clicked_at, failed_at, broadcast_id)
         SELECT 'bench:' || i, 'bench.type' || (i % 5), (ARRAY['email', 'email', 'push', 'sms'])[1 + i % 4], 'bench',
                CASE WHEN h < 30 THEN 'bounced' WHEN h < 150 THEN 'sent' ELSE 'delivered' END, 'done',
                'bench.t' || (i % 3), 1 + (i / 7) % 2, t, t + interval '2 seconds',
                CASE WHEN h >= 150 THEN t + interval '10 seconds' END,
                CASE WHEN h >= 150 AND h < 420 THEN t + interval '2 hours' END,
                CASE WHEN h >= 150 AND h < 190 THEN t + interval '3 hours' END,
                CASE WHEN h < 30 THEN t + interval '10 seconds' END,
                CASE WHEN (i / 4) % 4 = 0 THEN $3::bigint + (i / 16) % ${BROADCASTS} END
           FROM generate_series($1::int, $2::int) AS i
          CROSS JOIN LATERAL (SELECT ((i::bigint * 2654435761) % 1000)::int AS h,
                                     date_trunc('day', now()) - make_interval(days => i % ${DAYS}, secs => (i / ${DAYS}) % 86400) AS t) AS x
         RETURNING id, sent_at, delivered_at, opened_at, clicked_at, failed_at
       ), logged AS (
         INSERT INTO herald.notification_events (notification_id, type, at, detail)
         SELECT id, 'sent', sent_at, '{}'::jsonb FROM made
         UNION ALL SELECT id, 'delivered', delivered_at, '{}' FROM made WHERE delivered_at IS NOT NULL
         UNION ALL SELECT id, 'bounced', failed_at, '{}' FROM made WHERE failed_at IS NOT NULL
         UNION ALL SELECT id, 'opened', delivered_at, '{"proxy": "apple_mpp", "prefetch": true}' FROM made WHERE delivered_at IS NOT NULL AND id % 5 = 0
         UNION ALL SELECT id, 'opened', opened_at, '{}' FROM made WHERE opened_at IS NOT NULL
         UNION ALL SELECT id, 'opened', opened_at + interval '1 day', '{}' FROM made WHERE opened_at IS NOT NULL AND id % 3 = 0
         UNION ALL SELECT id, 'clicked', clicked_at, '{}' FROM made WHERE clicked_at IS NOT NULL
         RETURNING 1
       )
       SELECT count(*)::text AS events FROM logged`,
      [first, last, firstBroadcast],
    );
    events += Number(rows[0]!.events);
    log(`  generated ${last.toLocaleString("en")} of ${size.toLocaleString("en")} notifications (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  await pool.query("VACUUM ANALYZE herald.notifications");
  await pool.query("VACUUM ANALYZE herald.notification_events");
  return { events, seconds: (performance.now() - started) / 1000 };
}

/**
 * Opens arriving today for 1 % of the notifications, sent up to 90 days ago, then the
 * incremental rollup (the task's own function) until it has caught up: they must land on their
 * send days, which the equality check before timing verifies.
 */
async function lateOpens(pool: pg.Pool): Promise<{ events: number; seconds: number; batches: number }> {
  const { rowCount } = await pool.query(
    `WITH opened AS (
       UPDATE herald.notifications SET opened_at = now()
        WHERE id % 100 = 7 AND delivered_at IS NOT NULL AND opened_at IS NULL RETURNING id
     )
     INSERT INTO herald.notification_events (notification_id, type, detail) SELECT id, 'opened', '{}'::jsonb FROM opened`,
  );
  const started = performance.now();
  let batches = 0;
  for (;;) {
    const step = await rollUpAnalytics(pool, { timeZone: "UTC", batchSize: 20_000, gapHorizonMs: 3_600_000 });
    batches += 1;
    if (step.kind !== "rolled_up") throw new Error(`the rollup answered ${step.kind}`);
    if (step.caughtUp) break;
  }
  return { events: rowCount ?? 0, seconds: (performance.now() - started) / 1000, batches };
}

async function timedQuery(pool: pg.Pool, text: string, values: unknown[]): Promise<number> {
  const started = performance.now();
  await pool.query(text, values);
  return performance.now() - started;
}
