import { parseRule } from "@herald/core";
import { createBroadcast, createTemplate, fanOutChunk, publishTemplateDraft, segmentQuery, transitionBroadcast, upsertCategory } from "@herald/db";
import pg from "pg";
import { createBenchDatabase } from "../bench-database.ts";
import { interleave, type Scenario, type ScenarioContext, type ScenarioOutcome } from "../scenario.ts";
import { sizeOf, warmupSizeOf } from "../sizes.ts";
import { summarize } from "../stats.ts";

const HERALD = "Herald fan-out";
const BARE = "bare INSERT … SELECT";
/** The start task's chunk size (apps/server/src/tasks/start-broadcast.ts). */
const CHUNK_USERS = 5_000;

export const fanOutScenario: Scenario = {
  name: "fanout",
  summary: "a broadcast's fan-out to N users (compiled segment, holdout and variant hashing, chunked transactions, dedup keys, created log rows) vs one bare INSERT … SELECT of N notification rows",
  run: runFanOut,
};

async function runFanOut(ctx: ScenarioContext): Promise<ScenarioOutcome> {
  const size = sizeOf("fanout", ctx.scale, ctx.tiny);
  const db = await createBenchDatabase(ctx.cluster.url, "fanout");
  const pool = new pg.Pool({ connectionString: db.url, max: 2, application_name: "herald-bench" });
  try {
    const setup = await prepare(pool, size);
    // Every round fans out to the whole population; the audience query picks the first `n` users.
    const audienceOf = async (n: number) => {
      const rule = parseRule({ kind: "and", children: [{ kind: "has_email" }, { kind: "attribute", attribute: "rank", op: "lt", value: n }] });
      if (!rule.ok) throw new Error("bench rule does not parse");
      return segmentQuery(pool, rule.rule, new Date());
    };
    const samples = await interleave<number>(
      [
        {
          name: HERALD,
          run: async (n) => {
            const id = await createBroadcast(
              pool,
              { name: "bench", segmentId: setup.segmentId, templateKey: "bench.sale", variants: [{ version: 1, percent: 100 }], channels: ["email"], category: "bench", lane: "bulk", holdoutPercent: 0, throttlePerMinute: null, data: {} },
              setup.memberId,
            );
            await transitionBroadcast(pool, id, ["draft"], "sending");
            const audience = await audienceOf(n);
            const started = performance.now();
            for (;;) {
              const outcome = await fanOutChunk(pool, id, audience, { kind: "instant", at: new Date() }, CHUNK_USERS);
              if (outcome.kind === "stopped" || outcome.done) break;
            }
            const seconds = (performance.now() - started) / 1000;
            await park(pool);
            return n / seconds;
          },
        },
        {
          name: BARE,
          run: async (n, round) => {
            const started = performance.now();
            await pool.query(
              `INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, lane, template_key, template_version, vars)
               SELECT 'bare:' || $1 || ':' || u.id || ':email', u.id, 'broadcast', 'email', 'bench', 'bulk', 'bench.sale', 1, '{}'::jsonb
                 FROM herald.users u WHERE u.email IS NOT NULL AND (u.attributes->>'rank')::int < $2`,
              [`${round}-${Date.now()}`, n],
            );
            const seconds = (performance.now() - started) / 1000;
            await park(pool);
            return n / seconds;
          },
        },
      ],
      { size, warmupSize: warmupSizeOf(size), repeats: ctx.repeats, log: ctx.log, describe: (rate) => `${Math.round(rate).toLocaleString("en")} rows/s` },
    );
    const herald = summarize(samples.get(HERALD)!);
    const bare = summarize(samples.get(BARE)!);
    return {
      notes: [
        `${size.toLocaleString("en")} users with an email, one channel: ${size.toLocaleString("en")} notification rows per round, chunks of ${CHUNK_USERS.toLocaleString("en")} users`,
        "timed from the first chunk to the last commit; the pump's share (rows → jobs) is not in this figure yet",
        "the seed's per-user loop baseline is not built yet",
      ],
      metrics: [
        {
          metric: "rows/s",
          herald,
          baseline: { name: BARE, summary: bare },
          verdict: { target: "≤ 2× the bare insert's time", met: herald.median * 2 >= bare.median },
        },
      ],
      peakRssMb: 0,
    };
  } finally {
    await pool.end();
    if (!ctx.keepDatabases) await db.drop();
  }
}

/** Settles every row so the next round's inserts meet the same small partial indexes. */
async function park(pool: pg.Pool): Promise<void> {
  await pool.query("UPDATE herald.notifications SET status = 'canceled', dispatch_state = 'done' WHERE dispatch_state <> 'done'");
  await pool.query("VACUUM ANALYZE herald.notifications");
}

async function prepare(pool: pg.Pool, size: number): Promise<{ memberId: string; segmentId: string }> {
  await upsertCategory(pool, "bench", { label: "Bench" });
  const { rows } = await pool.query<{ id: string }>("INSERT INTO herald.members (email, name, role, password_hash) VALUES ('bench@example.com', 'Bench', 'admin', '-') RETURNING id::text");
  const memberId = rows[0]!.id;
  await createTemplate(pool, {
    key: "bench.sale",
    name: "Bench sale",
    channels: ["email"],
    defaultCategory: "bench",
    defaultLocale: "en",
    memberId,
    draft: { variables: [], content: { en: { email: { subject: "Sale", html: "<p>Sale</p>" } } } },
  });
  await publishTemplateDraft(pool, "bench.sale", memberId, () => []);
  const segment = await pool.query<{ id: string }>(`INSERT INTO herald.segments (name, rule) VALUES ('bench', '{"kind": "has_email"}') RETURNING id::text`);
  await pool.query(
    `INSERT INTO herald.users (external_id, email, attributes)
     SELECT 'u' || i, 'u' || i || '@example.com', jsonb_build_object('rank', i) FROM generate_series(0, $1::int - 1) i`,
    [size],
  );
  await pool.query("ANALYZE herald.users");
  return { memberId, segmentId: segment.rows[0]!.id };
}
