import { listUserNotifications, type TimelineFilter } from "@herald/db";
import pg from "pg";
import { createBenchDatabase } from "../bench-database.ts";
import { signInAs, timedGet, trpcQueryUrl } from "../dashboard-session.ts";
import { startHeraldDuring, type HeraldProcess } from "../herald-process.ts";
import { mulberry32, randomInt } from "../random.ts";
import { interleave, type Metric, type Scale, type Scenario, type ScenarioContext, type ScenarioOutcome } from "../scenario.ts";
import { sizeOf } from "../sizes.ts";
import { percentile, summarize } from "../stats.ts";

const HERALD = "Herald tRPC userHistory";
const HERALD_SQL = "Herald's SQL, no HTTP";
const BARE = "bare indexed SQL";
const FLOOR = "system.status (floor)";
/** system.status calls per round: the floor of any signed-in call. */
const FLOOR_REQUESTS = 40;
/** First pages asked for per contender per round, each for a user (and filter) drawn anew (half at small: its 2 minutes). */
const REQUESTS: Record<Scale, number> = { small: 100, medium: 200, large: 200 };
const TINY_REQUESTS = 20;
const PAGE = 25;
const TARGET_P95_MS = 20;
/** Notifications per user on average; the skew puts thousands on the heaviest. */
const PER_USER = 50;
/** The users with the most notifications: a quarter of the requests ask for one of them. */
const HEAVY = 100;
const DAYS = 180;
const CHUNK = 1_000_000;
const CHANNELS = ["email", "push", "sms"] as const;
const STATUSES = ["delivered", "bounced", "skipped"] as const;

export const timelineScenario: Scenario = {
  name: "timeline",
  summary:
    "p95 of the first page of one user's notification history (the dashboard's notifications.userHistory, a support member's session) through tRPC over HTTP, heavy users and filters included, vs the bare indexed SQL",
  run: runTimeline,
};

/** One first page to ask for: whose, and narrowed how. */
interface Ask {
  userId: string;
  heavy: boolean;
  filter: { channel?: string; status?: string };
}

interface Sample {
  ask: Ask;
  ms: number;
}

async function runTimeline(ctx: ScenarioContext): Promise<ScenarioOutcome> {
  const size = sizeOf("timeline", ctx.scale, ctx.tiny);
  const users = Math.max(HEAVY * 2, Math.round(size / PER_USER));
  const requests = ctx.tiny ? TINY_REQUESTS : REQUESTS[ctx.scale];
  const db = await createBenchDatabase(ctx.cluster.url, "timeline");
  const pool = new pg.Pool({ connectionString: db.url, max: 2, application_name: "herald-bench" });
  let herald: HeraldProcess | null = null;
  try {
    const started = await startHeraldDuring({ databaseUrl: db.url, role: "api", childBase: ctx.env.childBase }, () =>
      generate(pool, size, users, ctx.seed, ctx.log),
    );
    herald = started.herald;
    const generated = started.result;
    const heaviest = await heaviestUsers(pool);
    ctx.log(`  the heaviest user has ${heaviest[0]!.count.toLocaleString("en")} notifications, the ${HEAVY}th ${heaviest.at(-1)!.count.toLocaleString("en")}`);

    const cookie = await signInAs(pool, "support");
    const baseUrl = herald.baseUrl;
    const historyUrl = (ask: Ask) => trpcQueryUrl(baseUrl, "notifications.userHistory", { userId: ask.userId, limit: PAGE, ...ask.filter });
    await checkAgreement(pool, historyUrl, cookie, heaviest.map((h) => h.userId));

    const random = mulberry32(ctx.seed);
    const draw = (n: number): Ask[] => Array.from({ length: n }, () => drawAsk(random, users, heaviest));
    const contenders: Array<{ name: string; one: (ask: Ask) => Promise<number> }> = [
      { name: HERALD, one: (ask) => timedGet(historyUrl(ask), cookie) },
      { name: HERALD_SQL, one: (ask) => timed(() => listUserNotifications(pool, ask.userId, { limit: PAGE }, ask.filter as TimelineFilter)) },
      { name: BARE, one: (ask) => timed(() => pool.query(BARE_FIRST_PAGE, [ask.userId, ask.filter.channel ?? null, ask.filter.status ?? null, PAGE])) },
    ];
    const floorUrl = trpcQueryUrl(baseUrl, "system.status");
    // Every contender answers the same asks in a round: drawn once per round name.
    const asksByRound = new Map<string, Ask[]>();
    const asksOf = (n: number, round: string) => {
      if (!asksByRound.has(round)) asksByRound.set(round, draw(n));
      return asksByRound.get(round)!;
    };
    const sampled = await interleave<Sample[]>(
      [
        ...contenders.map((c) => ({
          name: c.name,
          run: async (n: number, round: string) => {
            const samples: Sample[] = [];
            for (const ask of asksOf(n, round)) samples.push({ ask, ms: await c.one(ask) });
            return samples;
          },
        })),
        {
          name: FLOOR,
          run: async (n: number) => {
            const samples: Sample[] = [];
            for (let i = 0; i < Math.min(n, FLOOR_REQUESTS); i++) samples.push({ ask: FLOOR_ASK, ms: await timedGet(floorUrl, cookie) });
            return samples;
          },
        },
      ],
      {
        size: requests,
        warmupSize: Math.max(10, Math.round(requests / 4)),
        repeats: ctx.repeats,
        log: ctx.log,
        describe: (samples) => `p50 ${percentile(ms(samples), 50).toFixed(1)} ms, p95 ${percentile(ms(samples), 95).toFixed(1)} ms`,
      },
    );

    const p95Of = (name: string, keep: (a: Ask) => boolean) =>
      summarize(sampled.get(name)!.map((round) => percentile(ms(round.filter((s) => keep(s.ask))), 95)));
    const slices: Array<{ label: string; keep: (a: Ask) => boolean }> = [
      { label: "every first page", keep: () => true },
      { label: `the ${HEAVY} heaviest users`, keep: (a) => a.heavy },
      { label: "filtered by channel or status", keep: (a) => a.filter.channel !== undefined || a.filter.status !== undefined },
    ];
    const metrics: Metric[] = slices.flatMap(({ label, keep }) => {
      const h = p95Of(HERALD, keep);
      return [
        {
          metric: `p95 ms, ${label}`,
          herald: h,
          baseline: { name: BARE, summary: p95Of(BARE, keep) },
          verdict: { target: `≤ ${TARGET_P95_MS} ms`, met: h.median <= TARGET_P95_MS },
        },
      ];
    });
    metrics.push(
      { metric: "p95 ms, every first page, Herald's SQL without HTTP", herald: p95Of(HERALD_SQL, () => true), baseline: { name: BARE, summary: p95Of(BARE, () => true) }, verdict: null },
      { metric: "p95 ms, tRPC floor (system.status)", herald: p95Of(FLOOR, () => true), baseline: null, verdict: null },
    );
    const asked = sampled.get(HERALD)!.flat().map((s) => s.ask);
    return {
      notes: [
        `${size.toLocaleString("en")} notifications over ${DAYS} days to ${users.toLocaleString("en")} users (user rank ⌊users·u²⌋: the heaviest has ${heaviest[0]!.count.toLocaleString("en")}, the ${HEAVY}th ${heaviest.at(-1)!.count.toLocaleString("en")}), ${generated.events.toLocaleString("en")} events in their log, generated set-based in ${generated.seconds.toFixed(0)} s (secondary indexes rebuilt after the load, then VACUUM ANALYZE); database ${generated.databaseGb.toFixed(1)} GB`,
        `Herald: GET /trpc/notifications.userHistory (limit ${PAGE}, the dashboard's first page, each row with its event log) with a support member's session cookie, HERALD_ROLE=api, one request at a time; latency includes HTTP, the session, the role check, zod and JSON`,
        `${requests} first pages per contender per round, the same asks for each: a quarter for one of the ${HEAVY} heaviest users, half for a user drawn by notification count, a quarter for any user; ${share(asked, (a) => a.filter.channel !== undefined)} filtered by channel, ${share(asked, (a) => a.filter.status !== undefined)} by status (delivered, bounced or skipped)`,
        `"Herald's SQL" is listUserNotifications (the procedure's own query, event logs and all) over a pg connection; "${BARE}" reads the same page's notification rows alone by the (user_id, created_at desc, id desc) index, no event log, no HTTP`,
        `the floor row is GET /trpc/system.status in the same rounds (${FLOOR_REQUESTS} per round): a signed-in procedure that reads one setting`,
      ],
      metrics,
      peakRssMb: herald.peakRssMb(),
    };
  } finally {
    await herald?.stop();
    await pool.end();
    if (!ctx.keepDatabases) await db.drop();
  }
}

const ms = (samples: Sample[]) => samples.map((s) => s.ms);
const share = (asks: Ask[], keep: (a: Ask) => boolean) => `${Math.round((100 * asks.filter(keep).length) / asks.length)} %`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

const BARE_FIRST_PAGE = `SELECT n.* FROM herald.notifications n
  WHERE n.user_id = (SELECT id FROM herald.users WHERE external_id = $1)
    AND ($2::text IS NULL OR n.channel = $2) AND ($3::text IS NULL OR n.status = $3)
  ORDER BY n.created_at DESC, n.id DESC LIMIT $4`;

function drawAsk(random: () => number, users: number, heaviest: ReadonlyArray<{ userId: string }>): Ask {
  const kind = random();
  const heavy = kind < 0.25;
  let rank: number;
  if (heavy) rank = -1;
  else if (kind < 0.75) rank = Math.floor(users * random() ** 2);
  else rank = randomInt(random, users);
  const userId = heavy ? heaviest[randomInt(random, heaviest.length)]!.userId : userIdOf(rank);
  const f = random();
  const filter = f < 0.2 ? { channel: CHANNELS[randomInt(random, CHANNELS.length)]! } : f < 0.4 ? { status: STATUSES[randomInt(random, STATUSES.length)]! } : {};
  return { userId, heavy, filter };
}

const userIdOf = (rank: number) => `tl-${rank}`;
const FLOOR_ASK: Ask = { userId: "", heavy: false, filter: {} };

/**
 * The tRPC answer is the page the bare SQL reads (same ids, newest first), with event logs, for
 * the heaviest user unfiltered and filtered, before anything is timed.
 */
async function checkAgreement(pool: pg.Pool, url: (ask: Ask) => string, cookie: string, heavy: string[]): Promise<void> {
  for (const ask of [
    { userId: heavy[0]!, heavy: true, filter: {} },
    { userId: heavy[0]!, heavy: true, filter: { status: "bounced" } },
    { userId: heavy[1]!, heavy: true, filter: { channel: "sms" } },
  ] satisfies Ask[]) {
    const response = await fetch(url(ask), { headers: { cookie } });
    const body = (await response.json()) as { result?: { data: { items: Array<{ id: string; events: unknown[] }> } } };
    const items = body.result?.data.items ?? [];
    const { rows } = await pool.query<{ id: string }>(`SELECT id::text FROM (${BARE_FIRST_PAGE}) p`, [ask.userId, ask.filter.channel ?? null, ask.filter.status ?? null, PAGE]);
    const got = items.map((i) => i.id).join(",");
    if (response.status !== 200 || items.length !== PAGE || got !== rows.map((r) => r.id).join(",") || items.some((i) => i.events.length === 0)) {
      throw new Error(`userHistory for ${JSON.stringify(ask)} answered ${response.status} with [${got}], the bare SQL [${rows.map((r) => r.id).join(",")}]`);
    }
  }
}

async function heaviestUsers(pool: pg.Pool): Promise<Array<{ userId: string; count: number }>> {
  const { rows } = await pool.query<{ external_id: string; count: number }>(
    `SELECT u.external_id, c.count FROM (SELECT user_id, count(*)::int AS count FROM herald.notifications GROUP BY user_id ORDER BY count(*) DESC LIMIT ${HEAVY}) c
       JOIN herald.users u ON u.id = c.user_id ORDER BY c.count DESC`,
  );
  return rows.map((r) => ({ userId: r.external_id, count: r.count }));
}

/**
 * `users` users, then `size` notifications in creation order (ids and created_at rise together,
 * as the pipeline writes them) over the last 180 days, each to the user of rank ⌊users·u²⌋ for a
 * hashed u, so a few users have thousands and the median a few dozen; channels 50/30/20 %
 * email/push/sms; 80 % delivered, 10 % sent, 3 % bounced, 2 % failed, 5 % skipped; the content
 * as sent; a log of created, then sent or skipped, then delivered, bounced or failed. Set-based
 * in chunks of a million with the tables' secondary indexes dropped, then rebuilt by their own
 * definitions, as a restore would.
 */
async function generate(pool: pg.Pool, size: number, users: number, seed: number, log: (m: string) => void) {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  await pool.query(
    `INSERT INTO herald.users (external_id, email, phone, timezone)
     SELECT 'tl-' || r, 'tl-' || r || '@example.com', '+4915' || lpad(r::text, 9, '0'), 'Europe/Berlin' FROM generate_series(0, $1::int - 1) AS r ORDER BY r`,
    [users],
  );
  const { rows: lowest } = await pool.query<{ id: string }>("SELECT min(id)::text AS id FROM herald.users");
  const client = await pool.connect();
  let events = 0;
  try {
    await client.query("SET maintenance_work_mem = '512MB'");
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
        WHERE i.schemaname = 'herald' AND i.tablename IN ('notifications', 'notification_events')
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    );
    for (const index of indexes) await client.query(`DROP INDEX herald.${pg.escapeIdentifier(index.name)}`);
    for (let first = 1; first <= size; first += CHUNK) {
      const last = Math.min(size, first + CHUNK - 1);
      const { rows } = await client.query<{ events: string }>(
        `WITH made AS (
           INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, status, dispatch_state, template_key, template_version,
                                             address, provider, provider_message_id, rendered, attempt_count, created_at, updated_at, sent_at, delivered_at, failed_at, reason)
           SELECT 'tl:' || i, $3::bigint + x.rank, 'order.' || (ARRAY['shipped', 'delivered', 'delayed', 'refunded', 'review'])[1 + i % 5], x.channel, 'orders',
                  x.status, 'done', 'orders.' || (i % 5), 1 + i % 2,
                  CASE x.channel WHEN 'email' THEN 'tl-' || x.rank || '@example.com' WHEN 'sms' THEN '+4915' || lpad(x.rank::text, 9, '0') ELSE 'push-token-' || x.rank END,
                  CASE WHEN x.status <> 'skipped' THEN 'sandbox-' || x.channel END,
                  CASE WHEN x.status <> 'skipped' THEN 'msg-' || i END,
                  CASE WHEN x.status = 'skipped' THEN NULL
                       WHEN x.channel = 'email' THEN jsonb_build_object('subject', 'Your order ' || i || ' has an update', 'text', 'Hello, order ' || i || ' moved on. Track it in the app or reply to this email.')
                       WHEN x.channel = 'push' THEN jsonb_build_object('title', 'Order ' || i, 'body', 'Your order moved on: open the app to track it.')
                       ELSE jsonb_build_object('body', 'Order ' || i || ' moved on. Track: https://example.com/o/' || i) END,
                  CASE WHEN x.status = 'skipped' THEN 0 ELSE 1 END,
                  x.t, x.t + interval '12 seconds',
                  CASE WHEN x.status <> 'skipped' THEN x.t + interval '1 second' END,
                  CASE WHEN x.status = 'delivered' THEN x.t + interval '11 seconds' END,
                  CASE WHEN x.status IN ('bounced', 'failed') THEN x.t + interval '12 seconds' END,
                  CASE WHEN x.status = 'skipped' THEN 'opted_out' END
             FROM generate_series($1::int, $2::int) AS i
            CROSS JOIN LATERAL (
              SELECT floor($5::int * (v.u * v.u))::int AS rank,
                     CASE WHEN v.c < 50 THEN 'email' WHEN v.c < 80 THEN 'push' ELSE 'sms' END AS channel,
                     CASE WHEN v.s < 80 THEN 'delivered' WHEN v.s < 90 THEN 'sent' WHEN v.s < 93 THEN 'bounced' WHEN v.s < 95 THEN 'failed' ELSE 'skipped' END AS status,
                     now() - interval '${DAYS} days' + (i::float8 / $4::int) * interval '${DAYS} days' AS t
                FROM (SELECT (hashint8extended(i, $6) & 1048575) / 1048576.0 AS u, (hashint8extended(i, $6 + 1) & 1023) % 100 AS c,
                             (hashint8extended(i, $6 + 2) & 1023) % 100 AS s) v
            ) x
           RETURNING id, status, created_at, sent_at, delivered_at, failed_at, provider
         ), logged AS (
           INSERT INTO herald.notification_events (notification_id, type, at, detail)
           SELECT id, 'created', created_at, '{}'::jsonb FROM made
           UNION ALL SELECT id, 'sent', sent_at, jsonb_build_object('provider', provider, 'code', 'ok', 'latencyMs', 180) FROM made WHERE sent_at IS NOT NULL
           UNION ALL SELECT id, 'skipped', created_at, '{"reason": "opted_out"}' FROM made WHERE status = 'skipped'
           UNION ALL SELECT id, 'delivered', delivered_at, '{}' FROM made WHERE delivered_at IS NOT NULL
           UNION ALL SELECT id, status, failed_at, jsonb_build_object('code', 'hard_bounce') FROM made WHERE failed_at IS NOT NULL
           RETURNING 1
         )
         SELECT count(*)::text AS events FROM logged`,
        [first, last, lowest[0]!.id, size, users, seed],
      );
      events += Number(rows[0]!.events);
      log(`  generated ${last.toLocaleString("en")} of ${size.toLocaleString("en")} notifications (${elapsed()})`);
    }
    for (const index of indexes) await client.query(index.definition);
    log(`  ${indexes.length} secondary indexes rebuilt (${elapsed()})`);
  } finally {
    client.release();
  }
  await pool.query("VACUUM ANALYZE herald.users");
  await pool.query("VACUUM ANALYZE herald.notifications");
  await pool.query("VACUUM ANALYZE herald.notification_events");
  const { rows } = await pool.query<{ bytes: string }>("SELECT pg_database_size(current_database())::text AS bytes");
  log(`  vacuumed and analysed (${elapsed()})`);
  return { events, seconds: (performance.now() - started) / 1000, databaseGb: Number(rows[0]!.bytes) / 1024 ** 3 };
}
