import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { recordActivity } from "../../src/index.ts";
import { MIGRATIONS_DIR, migrate, readMigrations } from "../../src/migrate.ts";
import { withDatabase } from "../../src/testing/index.ts";
import { mulberry32 } from "../support/random-segments.ts";
import { useTestDatabase } from "../support/test-database.ts";

const SEED = Number(process.env.HERALD_SEGMENT_SEED ?? 20261201);
const SUMMARY_MIGRATION = "20261201020000_activity_summaries";
/** Later migrations that build on the summaries table, so cannot run before it. */
const ON_SUMMARIES = ["20261201090000_set_based_gates_and_segment_indexes"];

/**
 * Every difference between herald.activity_summaries and a direct aggregate of herald.activities,
 * as readable lines: a missing, extra or wrong summary row. Empty when they agree.
 */
async function drift(sql: Pick<pg.Pool, "query">): Promise<string[]> {
  const { rows } = await sql.query<{ line: string }>(
    `WITH truth AS (
       SELECT name, user_id, min(occurred_at) AS first_at, max(occurred_at) AS last_at, count(*) AS count
         FROM herald.activities GROUP BY name, user_id
     )
     SELECT format('%s/%s: summary %s, activities %s', coalesce(s.name, t.name), coalesce(s.user_id, t.user_id),
                   CASE WHEN s.name IS NULL THEN 'none' ELSE format('%s × [%s, %s]', s.count, s.first_at, s.last_at) END,
                   CASE WHEN t.name IS NULL THEN 'none' ELSE format('%s × [%s, %s]', t.count, t.first_at, t.last_at) END) AS line
       FROM herald.activity_summaries s FULL JOIN truth t ON t.name = s.name AND t.user_id = s.user_id
      WHERE (s.count, s.first_at, s.last_at) IS DISTINCT FROM (t.count, t.first_at, t.last_at)
      ORDER BY 1`,
  );
  return rows.map((r) => r.line);
}

async function makeUsers(sql: Pick<pg.Pool, "query">, prefix: string, n: number): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    "INSERT INTO herald.users (external_id) SELECT $1 || i FROM generate_series(1, $2::int) i RETURNING id::text",
    [prefix, n],
  );
  return rows.map((r) => r.id);
}

describe("herald.activity_summaries agrees with herald.activities", () => {
  const test = useTestDatabase();

  it(`through 300 random inserts, deletes, updates and user erasures (seed ${SEED})`, async () => {
    const pool = test.db.pool;
    const random = mulberry32(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    let users = await makeUsers(pool, "random-", 6);
    const names = ["open", "session_completed", "purchase"];
    const base = Date.parse("2026-11-01T00:00:00Z");
    const instant = () => new Date(base + Math.floor(random() * 60) * 86_400_000 - 20 * 86_400_000).toISOString();
    const seen = new Set<string>();
    for (let step = 0; step < 300; step++) {
      const roll = random();
      let op: string;
      if (roll < 0.45 || step < 10) {
        op = "insert";
        const n = 1 + Math.floor(random() * 12);
        const rows = Array.from({ length: n }, () => [pick(users), pick(names), instant()] as const);
        await pool.query(
          "INSERT INTO herald.activities (user_id, name, occurred_at) SELECT * FROM unnest($1::bigint[], $2::text[], $3::timestamptz[])",
          [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
        );
      } else if (roll < 0.5) {
        op = "recordActivity";
        const { rows } = await pool.query<{ external_id: string }>("SELECT external_id FROM herald.users WHERE id = $1", [pick(users)]);
        await recordActivity(pool, rows[0]!.external_id, { name: pick(names), occurredAt: instant() });
      } else if (roll < 0.7) {
        op = "delete";
        // The first, last or a random few of one pair, or of several pairs at once.
        const how = pick(["latest", "earliest", "some"] as const);
        if (how === "some") {
          await pool.query("DELETE FROM herald.activities WHERE id % $1 = $2", [3 + Math.floor(random() * 5), Math.floor(random() * 3)]);
        } else {
          await pool.query(
            `DELETE FROM herald.activities WHERE id = (SELECT id FROM herald.activities WHERE user_id = $1 AND name = $2
                ORDER BY occurred_at ${how === "latest" ? "DESC" : "ASC"}, id LIMIT 1)`,
            [pick(users), pick(names)],
          );
        }
        op += ` ${how}`;
      } else if (roll < 0.85) {
        op = "move";
        const column = pick(["name", "user_id", "occurred_at", "all"] as const);
        const value = column === "name" ? pick(names) : column === "user_id" ? pick(users) : instant();
        const set =
          column === "all"
            ? "name = $2::text, user_id = $3::bigint, occurred_at = $4::timestamptz"
            : `${column} = $2::${column === "name" ? "text" : column === "user_id" ? "bigint" : "timestamptz"}`;
        const params = column === "all" ? [pick(names), pick(users), instant()] : [value];
        await pool.query(`UPDATE herald.activities SET ${set} WHERE id % 4 = $1`, [Math.floor(random() * 4), ...params]);
        op += ` ${column}`;
      } else if (roll < 0.93) {
        op = "properties";
        await pool.query("UPDATE herald.activities SET properties = jsonb_build_object('step', $1::int) WHERE user_id = $2", [step, pick(users)]);
      } else {
        op = "erase user";
        const gone = pick(users);
        await pool.query("DELETE FROM herald.users WHERE id = $1", [gone]);
        users = users.filter((u) => u !== gone);
        users.push(...(await makeUsers(pool, `random-${step}-`, 1)));
      }
      seen.add(op.split(" ")[0]!);
      const problems = await drift(pool);
      expect(problems, `seed ${SEED}, step ${step} (${op})`).toEqual([]);
    }
    expect([...seen].sort()).toEqual(["delete", "erase", "insert", "move", "properties", "recordActivity"]);
    const { rows } = await pool.query<{ n: string }>("SELECT count(*)::text AS n FROM herald.activity_summaries");
    expect(Number(rows[0]!.n)).toBeGreaterThan(5);
  });

  it("counts every insert when many transactions add to the same users and names at once, without deadlocks", async () => {
    const pool = new pg.Pool({ connectionString: test.url, max: 8 });
    try {
      const users = await makeUsers(pool, "busy-", 2);
      // Each transaction inserts rows for both users and both names, in an order of its own, in
      // two statements, and holds its locks a moment so the others queue behind it.
      const orders = [
        [users[0], users[1]],
        [users[1], users[0]],
      ];
      await Promise.all(
        Array.from({ length: 8 }, async (_, worker) => {
          for (let round = 0; round < 12; round++) {
            const client = await pool.connect();
            try {
              await client.query("BEGIN");
              const order = orders[(worker + round) % 2]!;
              await client.query("INSERT INTO herald.activities (user_id, name, occurred_at) SELECT unnest($1::bigint[]), 'hit', now() - $2 * interval '1 minute'", [order, worker * 100 + round]);
              await client.query("INSERT INTO herald.activities (user_id, name) SELECT unnest($1::bigint[]), 'other'", [[...order].reverse()]);
              await client.query("SELECT pg_sleep(0.002)");
              await client.query("COMMIT");
            } catch (error) {
              await client.query("ROLLBACK");
              throw error;
            } finally {
              client.release();
            }
          }
        }),
      );
      expect(await drift(pool)).toEqual([]);
      const { rows } = await pool.query<{ name: string; count: string }>(
        "SELECT name, count::text FROM herald.activity_summaries WHERE user_id = ANY ($1::bigint[]) ORDER BY name, user_id",
        [users],
      );
      expect(rows.map((r) => [r.name, Number(r.count)])).toEqual([
        ["hit", 96],
        ["hit", 96],
        ["other", 96],
        ["other", 96],
      ]);
    } finally {
      await pool.end();
    }
  });

  it("stays exact when a delete and an insert of the same user and name run concurrently, whichever locks first", async () => {
    const pool = new pg.Pool({ connectionString: test.url, max: 4 });
    try {
      for (const first of ["delete", "insert"] as const) {
        const [user] = await makeUsers(pool, `race-${first}-`, 1);
        await pool.query(
          "INSERT INTO herald.activities (user_id, name, occurred_at) VALUES ($1, 'race', '2026-11-01T00:00:00Z'), ($1, 'race', '2026-11-20T00:00:00Z')",
          [user],
        );
        const deleter = await pool.connect();
        const inserter = await pool.connect();
        try {
          await deleter.query("BEGIN");
          await inserter.query("BEGIN");
          const del = () => deleter.query("DELETE FROM herald.activities WHERE user_id = $1 AND occurred_at = '2026-11-20T00:00:00Z'", [user]);
          const ins = () => inserter.query("INSERT INTO herald.activities (user_id, name, occurred_at) VALUES ($1, 'race', '2026-11-25T00:00:00Z')", [user]);
          // The first statement takes the summary row's lock; the second waits for it.
          await (first === "delete" ? del() : ins());
          const waiting = first === "delete" ? ins() : del();
          await waitUntilBlocked(pool);
          await (first === "delete" ? deleter : inserter).query("COMMIT");
          await waiting;
          await (first === "delete" ? inserter : deleter).query("COMMIT");
        } finally {
          deleter.release();
          inserter.release();
        }
        const { rows } = await pool.query<{ count: string; first_at: Date; last_at: Date }>(
          "SELECT count::text, first_at, last_at FROM herald.activity_summaries WHERE user_id = $1 AND name = 'race'",
          [user],
        );
        expect(rows.map((r) => [Number(r.count), r.first_at.toISOString(), r.last_at.toISOString()]), first).toEqual([
          [2, "2026-11-01T00:00:00.000Z", "2026-11-25T00:00:00.000Z"],
        ]);
      }
      expect(await drift(pool)).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});

/** Until another backend of this database waits on a lock: the second statement is queued. */
async function waitUntilBlocked(pool: pg.Pool): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await pool.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the second statement never waited for the first one's lock");
}

describe("the activity summaries migration", () => {
  const created: string[] = [];
  const admin = () => new pg.Client({ connectionString: withDatabase(inject("templateUrl"), "postgres") });
  let before = "";

  beforeAll(() => {
    // Every migration but the summaries one (and those indexing its table): a database as it was
    // before this migration.
    before = fs.mkdtempSync(path.join(os.tmpdir(), "herald-before-summaries-"));
    for (const m of readMigrations()) {
      if (m.name === SUMMARY_MIGRATION || ON_SUMMARIES.includes(m.name)) continue;
      fs.mkdirSync(path.join(before, m.name));
      fs.copyFileSync(path.join(MIGRATIONS_DIR, m.name, "migration.sql"), path.join(before, m.name, "migration.sql"));
    }
  });

  afterAll(async () => {
    fs.rmSync(before, { recursive: true, force: true });
    const client = admin();
    await client.connect();
    for (const name of created) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });

  it("backfills one row per user and name from the activities already recorded", async () => {
    const name = `herald_summaries_${Math.random().toString(36).slice(2, 10)}`;
    const client = admin();
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    created.push(name);
    const url = withDatabase(inject("templateUrl"), name);
    await migrate(url, before);

    const db = new pg.Pool({ connectionString: url, max: 2 });
    try {
      const users = await makeUsers(db, "old-", 40);
      await db.query(
        `INSERT INTO herald.activities (user_id, name, occurred_at)
         SELECT u, (ARRAY['open', 'session_completed', 'purchase'])[1 + (i * 7 + u) % 3], '2026-11-01T00:00:00Z'::timestamptz + ((i * 37 + u) % 900) * interval '1 hour'
           FROM unnest($1::bigint[]) u, generate_series(1, 25) i
          WHERE (i + u) % 4 <> 0`,
        [users],
      );
      const { applied } = await migrate(url);
      expect(applied).toEqual([SUMMARY_MIGRATION, ...ON_SUMMARIES]);
      expect(await drift(db)).toEqual([]);
      const { rows } = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM herald.activity_summaries");
      expect(Number(rows[0]!.n)).toBe(120);
    } finally {
      await db.end();
    }
  });
});
