import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { broadcastDryRun } from "../src/index.ts";
import { useTestDatabase } from "./support/test-database.ts";

/** 2026-11-30 14:00 UTC: 15:00 in Berlin, 23:00 in Tokyo, 09:00 in New York. */
const NOW = new Date("2026-11-30T14:00:00Z");
const SEED = Number(process.env.HERALD_GATES_SEED ?? 20261201);
const USERS = 400;
const CHANNELS = ["push", "email", "sms"] as const;
/** headlines is an alias of news; security is mandatory; promo caps by skipping, digest by deferring. */
const CATEGORIES = ["headlines", "security", "promo", "digest"] as const;
const LANES = ["bulk", "critical"] as const;
const ZONES = [null, "Europe/Berlin", "Asia/Tokyo", "America/New_York"];
const REASONS = ["hard_bounce", "complaint", "stop", "invalid", "manual", "import"];

/** mulberry32: the same seed writes the same population. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Tuple {
  userId: string;
  channel: string;
  category: string;
  lane: string;
}

const GATE_COLUMNS = "g.verdict, g.reason, g.defer_until, g.address, g.tokens, g.detail";

/**
 * The dry run hands a whole audience to herald.evaluate_gates at once, planned with its real size,
 * so the gates run as hash joins; a send hands it a batch planned for ten tuples, so it probes by
 * index. Both must be the same gates: on a population seeded to hit every gate (opt-outs per
 * category and channel, plain and hashed suppressions of addresses and tokens, missing addresses,
 * inactive devices, quiet hours of every specificity in several zones, mandatory categories,
 * aliases, both kinds of frequency cap, holdouts and variants), every tuple's answer from the
 * whole-audience call is compared with its answer alone, and with the previous definition of the
 * gates (the LATERAL one of 20261201080000), which probed per tuple by construction.
 */
describe(`the gates for a whole audience at once (seed ${SEED}; HERALD_GATES_SEED replays)`, () => {
  const test = useTestDatabase();
  let userIds: string[] = [];
  let tuples: Tuple[] = [];

  beforeAll(async () => {
    const sql = test.db.pool;
    const rnd = random(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
    await sql.query(`
      INSERT INTO herald.categories (key, label, mandatory, defaults, frequency_cap) VALUES
        ('news', 'News', false, '{"sms": false}', NULL),
        ('security', 'Security', true, '{"email": false}', NULL),
        ('promo', 'Promotions', false, '{}', '{"max": 2, "windowSeconds": 86400, "action": "skip"}'),
        ('digest', 'Digest', false, '{"push": false}', '{"max": 1, "windowSeconds": 3600, "action": "defer"}')`);
    await sql.query("INSERT INTO herald.category_aliases VALUES ('headlines', 'news')");

    const users = Array.from({ length: USERS }, (_, i) => ({
      externalId: `g-${i}`,
      email: rnd() < 0.8 ? `user${i}@example.com` : null,
      phone: rnd() < 0.55 ? `+49151${String(i).padStart(7, "0")}` : null,
      timezone: pick(ZONES),
    }));
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO herald.users (external_id, email, phone, timezone)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) RETURNING id::text`,
      [users.map((u) => u.externalId), users.map((u) => u.email), users.map((u) => u.phone), users.map((u) => u.timezone)],
    );
    userIds = rows.map((r) => r.id);

    const devices: Array<[string, string, boolean]> = [];
    const prefs: Array<[string, string, string, boolean, string]> = [];
    const quiet: Array<[string, string, string, string, string, string | null]> = [];
    const sent: Array<[string, string, string, string]> = [];
    // [channel, address as stored or to be hashed, hashed?, reason, source]
    const suppressions: Array<[string, string, boolean, string, string]> = [];
    const suppress = (channel: string, address: string) => {
      const r = rnd();
      // Plain, hashed (erased in another case and with spaces: the hash normalises), or both.
      if (r < 0.08) suppressions.push([channel, address, false, pick(REASONS), "provider"]);
      else if (r < 0.16) suppressions.push([channel, ` ${channel === "email" ? address.toUpperCase() : address} `, true, pick(REASONS), "erasure"]);
      else if (r < 0.2) {
        suppressions.push([channel, address, false, "hard_bounce", "provider"]);
        suppressions.push([channel, address, true, "complaint", "erasure"]);
      }
    };
    for (const [i, user] of users.entries()) {
      const id = userIds[i]!;
      const deviceCount = Math.floor(rnd() * 4);
      for (let d = 0; d < deviceCount; d++) {
        const token = `tok-${i}-${d}`;
        devices.push([id, token, rnd() < 0.75]);
        suppress("push", token);
      }
      if (user.email) suppress("email", user.email);
      if (user.phone) suppress("sms", user.phone);
      for (const category of ["news", "security", "promo", "digest"]) {
        for (const channel of CHANNELS) if (rnd() < 0.15) prefs.push([id, category, channel, rnd() < 0.4, pick(["api", "unsubscribe_link", "support", "import", "dashboard"])]);
      }
      if (rnd() < 0.45) {
        const rules = new Set<string>();
        const count = 1 + Math.floor(rnd() * 3);
        for (let q = 0; q < count; q++) {
          const category = pick(["*", "news", "promo", "digest"]);
          const channel = pick(["*", ...CHANNELS]);
          if (rules.has(`${category}/${channel}`)) continue;
          rules.add(`${category}/${channel}`);
          const start = Math.floor(rnd() * 24);
          const end = (start + 1 + Math.floor(rnd() * 22)) % 24;
          quiet.push([id, category, channel, `${start}:${pick(["00", "30"])}`, `${end}:15`, rnd() < 0.5 ? pick(ZONES) : null]);
        }
      }
      if (rnd() < 0.5) {
        const count = Math.floor(rnd() * 4);
        for (let n = 0; n < count; n++) sent.push([id, pick(["promo", "digest", "news"]), pick(CHANNELS), new Date(NOW.getTime() - rnd() * 36 * 3_600_000).toISOString()]);
      }
    }
    const column = <T>(rows: T[][], k: number) => rows.map((r) => r[k]);
    await sql.query(
      `INSERT INTO herald.devices (user_id, token, platform, active, deactivated_reason, deactivated_at)
       SELECT u, t, 'ios', a, CASE WHEN NOT a THEN 'unregistered' END, CASE WHEN NOT a THEN now() END
         FROM unnest($1::bigint[], $2::text[], $3::boolean[]) d(u, t, a)`,
      [column(devices, 0), column(devices, 1), column(devices, 2)],
    );
    await sql.query(
      `INSERT INTO herald.suppressions (channel, address, reason, source)
       SELECT c, CASE WHEN h THEN herald.suppression_hash(c, a) ELSE a END, r, s
         FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[]) x(c, a, h, r, s)
       UNION ALL SELECT 'email', 'nobody@example.com', 'manual', 'support'`,
      [column(suppressions, 0), column(suppressions, 1), column(suppressions, 2), column(suppressions, 3), column(suppressions, 4)],
    );
    await sql.query(
      `INSERT INTO herald.preferences (user_id, category, channel, enabled, source)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::boolean[], $5::text[])`,
      [column(prefs, 0), column(prefs, 1), column(prefs, 2), column(prefs, 3), column(prefs, 4)],
    );
    await sql.query(
      `INSERT INTO herald.quiet_hours (user_id, category, channel, start_time, end_time, timezone)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::time[], $5::time[], $6::text[])`,
      [column(quiet, 0), column(quiet, 1), column(quiet, 2), column(quiet, 3), column(quiet, 4), column(quiet, 5)],
    );
    await sql.query(
      `INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, status, dispatch_state, content, sent_at)
       SELECT 'sent-' || n, u, 't', c, cat, 'sent', 'done', '{}', at
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[]) WITH ORDINALITY x(u, cat, c, at, n)`,
      [column(sent, 0), column(sent, 1), column(sent, 2), column(sent, 3)],
    );
    await sql.query("ANALYZE");

    // Every user × channel × category × lane, and two users who do not exist (deleted meanwhile).
    const missing = ["999999998", "999999999"];
    for (const userId of [...userIds, ...missing]) {
      for (const channel of CHANNELS) for (const category of CATEGORIES) for (const lane of LANES) tuples.push({ userId, channel, category, lane });
    }
  });

  const args = (ts: Tuple[]) => [ts.map((t) => t.userId), ts.map((t) => t.channel), ts.map((t) => t.category), ts.map((t) => t.lane), NOW, "UTC"];

  /** Each tuple's answer from one call for all of them, as the dry run makes it. */
  async function asOneSet(options: { hashOnly: boolean }): Promise<{ rows: unknown[]; plan: string }> {
    const client = await test.db.pool.connect();
    try {
      await client.query("BEGIN");
      // Without nested loops the planner has to join every table as a set.
      if (options.hashOnly) await client.query("SET LOCAL enable_nestloop = off");
      const text = `SELECT g.ord, ${GATE_COLUMNS} FROM herald.evaluate_gates($1::bigint[], $2::text[], $3::text[], $4::text[], $5, $6) g ORDER BY g.ord`;
      const explained = await client.query(`EXPLAIN ${text}`, args(tuples));
      const { rows } = await client.query(text, args(tuples));
      await client.query("COMMIT");
      return { rows: rows.map(({ ord: _ord, ...r }) => r), plan: explained.rows.map((r) => r["QUERY PLAN"]).join("\n") };
    } finally {
      client.release();
    }
  }

  /** Each tuple's answer when it is evaluated alone, by `fn` (herald.evaluate_gates, or the oracle). */
  async function oneByOne(fn: string): Promise<unknown[]> {
    const { rows } = await test.db.pool.query(
      `SELECT ${GATE_COLUMNS}
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS x(u, c, cat, lane, i)
        CROSS JOIN LATERAL ${fn}(ARRAY[x.u], ARRAY[x.c], ARRAY[x.cat], ARRAY[x.lane], $5, $6) g
        ORDER BY x.i`,
      args(tuples),
    );
    return rows;
  }

  it("hits every gate: the population is varied enough for the comparison to mean something", async () => {
    const alone = (await oneByOne("herald.evaluate_gates")) as Array<{ reason: string | null; verdict: string; detail: Record<string, unknown> }>;
    const reasons = new Set(alone.map((r) => r.reason));
    for (const reason of [
      null,
      "category_disabled",
      "unreachable:device",
      "unreachable:email",
      "unreachable:phone",
      "quiet_hours",
      "frequency_capped",
    ]) {
      expect(reasons, String(reason)).toContain(reason);
    }
    expect([...reasons].filter((r) => r?.startsWith("suppressed:")).length).toBeGreaterThanOrEqual(4);
    expect(alone.some((r) => r.verdict === "defer" && r.reason === "frequency_capped")).toBe(true);
    expect(alone.some((r) => r.verdict === "skip" && r.reason === "frequency_capped")).toBe(true);
    // A suppression kept both as the address and as its hash reads as the address's.
    expect(alone.some((r) => (r.detail.suppression as { source?: string } | undefined)?.source === "erasure")).toBe(true);
    expect(alone.some((r) => (r.detail.suppression as { source?: string } | undefined)?.source === "provider")).toBe(true);
  });

  it("answers every tuple of one whole-audience call, planned as a set of hash joins, as it answers that tuple alone", async () => {
    const alone = await oneByOne("herald.evaluate_gates");
    const hashed = await asOneSet({ hashOnly: true });
    expect(hashed.plan).toMatch(/Hash (Left |Right )?Join/);
    expect(hashed.plan).not.toContain("Nested Loop");
    expect(hashed.rows).toHaveLength(tuples.length);
    for (const [i, row] of hashed.rows.entries()) expect(row, JSON.stringify(tuples[i])).toEqual(alone[i]);
    // And as the planner chooses by itself for this many tuples.
    const chosen = await asOneSet({ hashOnly: false });
    for (const [i, row] of chosen.rows.entries()) expect(row, JSON.stringify(tuples[i])).toEqual(alone[i]);
  });

  it("answers as the previous, per-tuple definition of the gates did", async () => {
    // The gates as migration 20261201080000 defined them, under another name.
    const migration = fs.readFileSync(new URL("../../../prisma/migrations/20261201080000_data_lifecycle/migration.sql", import.meta.url), "utf8");
    const start = migration.indexOf("CREATE OR REPLACE FUNCTION herald.evaluate_gates(");
    const end = migration.indexOf("$$;", start) + 3;
    expect(start).toBeGreaterThan(0);
    const client = await test.db.pool.connect();
    try {
      await client.query(migration.slice(start, end).replace("herald.evaluate_gates(", "pg_temp.previous_gates("));
      const { rows: previous } = await client.query(
        `SELECT ${GATE_COLUMNS}
           FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS x(u, c, cat, lane, i)
          CROSS JOIN LATERAL pg_temp.previous_gates(ARRAY[x.u], ARRAY[x.c], ARRAY[x.cat], ARRAY[x.lane], $5, $6) g
          ORDER BY x.i`,
        args(tuples),
      );
      const { rows } = await test.db.pool.query(`SELECT ${GATE_COLUMNS} FROM herald.evaluate_gates($1::bigint[], $2::text[], $3::text[], $4::text[], $5, $6) g ORDER BY g.ord`, args(tuples));
      expect(rows).toHaveLength(previous.length);
      for (const [i, row] of rows.entries()) expect(row, JSON.stringify(tuples[i])).toEqual(previous[i]);
    } finally {
      client.release();
    }
  });

  it("counts in the dry run exactly the verdicts each recipient gets alone, by channel, variant and reason, past its holdout", async () => {
    const audience = { sql: "SELECT u.id AS user_id FROM herald.users u WHERE u.external_id LIKE $1", params: ["g-%"] };
    const variants = [
      { version: 1, percent: 30 },
      { version: 2, percent: 70 },
    ];
    for (const category of CATEGORIES) {
      for (const lane of LANES) {
        const broadcast = { id: "42", holdoutPercent: 20, variants, channels: ["push", "email", "sms"], category, lane };
        const dry = await broadcastDryRun(test.db.pool, broadcast, audience, NOW, "UTC");
        // The same split the fan-out makes, then each recipient × channel through the gates alone.
        const { rows: expected } = await test.db.pool.query(
          `WITH r AS (
             SELECT u.id, herald.broadcast_bucket(42, 'holdout', u.id) < 2000 AS held,
                    CASE WHEN herald.broadcast_bucket(42, 'variant', u.id) < 3000 THEN 1 ELSE 2 END AS version
               FROM herald.users u WHERE u.external_id LIKE 'g-%'
           )
           SELECT ch AS channel, r.version, g.verdict, g.reason, count(*)::int AS count
             FROM r CROSS JOIN unnest(ARRAY['push', 'email', 'sms']) ch
            CROSS JOIN LATERAL herald.evaluate_gates(ARRAY[r.id], ARRAY[ch], ARRAY[$1::text], ARRAY[$2::text], $3, 'UTC') g
            WHERE NOT r.held
            GROUP BY 1, 2, 3, 4`,
          [category, lane, NOW],
        );
        const key = (r: { channel: string; version: number; verdict: string; reason: string | null }) => `${r.channel}/${r.version}/${r.verdict}/${r.reason}`;
        const sorted = <T extends { channel: string; version: number; verdict: string; reason: string | null }>(rows: T[]) =>
          [...rows].sort((a, b) => key(a).localeCompare(key(b))).map((r) => ({ ...r }));
        expect(dry.audience).toBe(USERS);
        expect(dry.heldOut).toBeGreaterThan(0);
        expect(sorted(dry.rows), `${category} on ${lane}`).toEqual(sorted(expected));
      }
    }
  });
});
