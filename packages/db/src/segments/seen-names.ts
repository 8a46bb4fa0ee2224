import type { Sql } from "../sql.ts";

/** What values an attribute mostly holds, so the builder offers the right input. */
export type AttributeKind = "string" | "date" | "number" | "boolean" | "list" | "object" | "null";

export interface SeenAttribute {
  name: string;
  kind: AttributeKind;
  /** Share of the sampled users that have it, 0…1. */
  share: number;
}

export interface SeenActivity {
  name: string;
  lastSeenAt: Date;
}

/** Users read for attribute names: enough to see every common name, few enough to stay fast. */
const ATTRIBUTE_SAMPLE_ROWS = 20_000;

/**
 * Attribute names seen on users, most common first, each with the kind of value it mostly holds.
 * Read from a block sample of about 20,000 users (the planner's row estimate sizes it), so it
 * costs the same at a million users as at a thousand; a rare name can be missed, and the builder
 * accepts typed names too.
 */
export async function listAttributeNames(sql: Sql, limit = 200): Promise<SeenAttribute[]> {
  const { rows: estimate } = await sql.query<{ rows: number }>("SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = 'herald.users'::regclass");
  const rows = estimate[0]?.rows ?? -1;
  // reltuples is -1 until the first ANALYZE: read everything then (a new, small table).
  const percent = rows > ATTRIBUTE_SAMPLE_ROWS ? (ATTRIBUTE_SAMPLE_ROWS / rows) * 100 : 100;
  const { rows: seen } = await sql.query<{ name: string; kind: AttributeKind; share: number }>(
    `WITH sampled AS (SELECT attributes FROM herald.users TABLESAMPLE SYSTEM ($1::float8))
     SELECT a.key AS name,
            mode() WITHIN GROUP (ORDER BY CASE jsonb_typeof(a.value)
              WHEN 'string' THEN CASE WHEN herald.attribute_instant(a.value #>> '{}') IS NULL THEN 'string' ELSE 'date' END
              WHEN 'array' THEN 'list'
              ELSE jsonb_typeof(a.value) END) AS kind,
            count(*)::float8 / greatest((SELECT count(*) FROM sampled), 1) AS share
       FROM sampled s CROSS JOIN LATERAL jsonb_each(s.attributes) a
      GROUP BY a.key
      ORDER BY count(*) DESC, a.key
      LIMIT $2`,
    [percent, limit],
  );
  return seen;
}

/**
 * Distinct activity names with the last time each was seen, in name order. A skip scan over
 * activities_name_time_idx: one index probe per distinct name, however many rows each has.
 */
export async function listActivityNames(sql: Sql, limit = 500): Promise<SeenActivity[]> {
  const { rows } = await sql.query<{ name: string; last_seen_at: Date }>(
    `WITH RECURSIVE names AS (
       (SELECT a.name FROM herald.activities a ORDER BY a.name LIMIT 1)
       UNION ALL
       SELECT (SELECT a.name FROM herald.activities a WHERE a.name > n.name ORDER BY a.name LIMIT 1)
         FROM names n WHERE n.name IS NOT NULL
     )
     SELECT n.name, (SELECT max(a.occurred_at) FROM herald.activities a WHERE a.name = n.name) AS last_seen_at
       FROM names n WHERE n.name IS NOT NULL
      LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ name: r.name, lastSeenAt: r.last_seen_at }));
}
