import { findSegmentCycle, segmentReferences, type Rule } from "@herald/core";
import type pg from "pg";
import { withTransaction, type Sql } from "../sql.ts";

/** A saved segment as the dashboard lists and edits it. */
export interface SegmentRecord {
  id: string;
  name: string;
  description: string;
  /** As stored; parse it with RuleSchema before trusting it. */
  rule: unknown;
  /** The last live count, and when it was taken; null until counted once. */
  lastCount: number | null;
  lastCountedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** The last editor's name, or null when unknown or deleted. */
  updatedBy: string | null;
}

export interface SegmentRef {
  id: string;
  name: string;
}

export type SaveSegmentOutcome =
  | { kind: "saved"; id: string }
  | { kind: "not_found" }
  | { kind: "name_taken" }
  /** Segments the rule names that do not exist. */
  | { kind: "missing_segments"; ids: string[] }
  /** Saving would make the segment include itself: the chain from it back to it. */
  | { kind: "cycle"; chain: SegmentRef[] };

export type DeleteSegmentOutcome =
  | { kind: "deleted"; name: string }
  | { kind: "not_found" }
  /** Named by other segments' rules, or referenced from another table (a broadcast). */
  | { kind: "in_use"; segments: SegmentRef[]; table: string | null };

// Any constant: every save and delete of a segment takes it, so two saves can never each pass
// the cycle check and together close a cycle.
const SEGMENT_GRAPH_LOCK = 727_274_009;
const UNIQUE_VIOLATION = "23505";
// A row of another table still refers to the segment: NO ACTION reports 23503, RESTRICT 23001.
const STILL_REFERENCED = new Set(["23503", "23001"]);

const COLUMNS = `s.id::text, s.name, s.description, s.rule, s.last_count, s.last_counted_at, s.last_used_at, s.created_at, s.updated_at,
  m.name AS updated_by_name`;
const FROM = "herald.segments s LEFT JOIN herald.members m ON m.id = s.updated_by";

function toSegment(r: Record<string, any>): SegmentRecord {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    rule: r.rule,
    lastCount: r.last_count,
    lastCountedAt: r.last_counted_at,
    lastUsedAt: r.last_used_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by_name,
  };
}

/** One page of segments in name order, optionally filtered by a name substring. */
export async function listSegments(
  sql: Sql,
  { search, after, limit }: { search?: string | undefined; after?: string | null; limit: number },
): Promise<{ items: SegmentRecord[]; nextCursor: string | null }> {
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const { rows } = await sql.query(
    `SELECT ${COLUMNS} FROM ${FROM}
      WHERE ($1::text IS NULL OR s.name ILIKE $1) AND ($2::text IS NULL OR s.name > $2)
      ORDER BY s.name LIMIT $3`,
    [pattern, after ?? null, limit + 1],
  );
  const items = rows.slice(0, limit).map(toSegment);
  return { items, nextCursor: rows.length > limit ? items[items.length - 1]!.name : null };
}

export async function findSegment(sql: Sql, id: string): Promise<SegmentRecord | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM ${FROM} WHERE s.id = $1::bigint`, [id]);
  return rows[0] ? toSegment(rows[0]) : null;
}

/** The names of the segments with these ids (absent ids are left out), for plain words. */
export async function findSegmentNames(sql: Sql, ids: readonly string[]): Promise<Record<string, string>> {
  if (ids.length === 0) return {};
  const { rows } = await sql.query<{ id: string; name: string }>("SELECT id::text, name FROM herald.segments WHERE id = ANY ($1::bigint[])", [ids]);
  return Object.fromEntries(rows.map((r) => [r.id, r.name]));
}

/** The segments whose rules name this one. */
export async function listSegmentDependents(sql: Sql, id: string): Promise<SegmentRef[]> {
  const { rows } = await sql.query<SegmentRef>(
    `SELECT s.id::text, s.name FROM herald.segment_dependencies d JOIN herald.segments s ON s.id = d.segment_id
      WHERE d.depends_on = $1::bigint ORDER BY s.name`,
    [id],
  );
  return rows;
}

/**
 * Checks the segments `rule` names (under the graph lock): all exist, and none leads back to
 * `segmentId`. Null when the rule may be saved.
 */
async function checkReferences(client: pg.PoolClient, segmentId: string | null, rule: Rule): Promise<SaveSegmentOutcome | null> {
  const references = [...new Set(segmentReferences(rule).map((r) => r.segmentId))];
  if (references.length === 0) return null;
  const names = await findSegmentNames(client, references);
  const missing = references.filter((id) => names[id] === undefined);
  if (missing.length > 0) return { kind: "missing_segments", ids: missing };
  if (segmentId === null) return null;
  const { rows } = await client.query<{ segment_id: string; depends_on: string[] }>(
    "SELECT segment_id::text, array_agg(depends_on::text) AS depends_on FROM herald.segment_dependencies GROUP BY segment_id",
  );
  const chain = findSegmentCycle(segmentId, references, new Map(rows.map((r) => [r.segment_id, r.depends_on])));
  if (!chain) return null;
  const chainNames = await findSegmentNames(client, chain);
  return { kind: "cycle", chain: chain.map((id) => ({ id, name: chainNames[id] ?? `#${id}` })) };
}

async function writeDependencies(client: pg.PoolClient, segmentId: string, rule: Rule): Promise<void> {
  await client.query("DELETE FROM herald.segment_dependencies WHERE segment_id = $1::bigint", [segmentId]);
  const references = [...new Set(segmentReferences(rule).map((r) => r.segmentId))];
  await client.query(
    "INSERT INTO herald.segment_dependencies (segment_id, depends_on) SELECT $1::bigint, unnest($2::bigint[])",
    [segmentId, references],
  );
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === UNIQUE_VIOLATION;
}

/** Saves a new segment with its dependency edges. `rule` must have passed RuleSchema. */
export async function createSegment(
  pool: pg.Pool,
  input: { name: string; description: string; rule: Rule; memberId: string | null },
): Promise<SaveSegmentOutcome> {
  return withTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [SEGMENT_GRAPH_LOCK]);
    const refused = await checkReferences(client, null, input.rule);
    if (refused) return refused;
    await client.query("SAVEPOINT insert_segment");
    try {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO herald.segments (name, description, rule, created_by, updated_by)
         VALUES ($1, $2, $3::jsonb, $4, $4) RETURNING id::text`,
        [input.name, input.description, JSON.stringify(input.rule), input.memberId],
      );
      await writeDependencies(client, rows[0]!.id, input.rule);
      return { kind: "saved", id: rows[0]!.id };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await client.query("ROLLBACK TO SAVEPOINT insert_segment");
      return { kind: "name_taken" };
    }
  });
}

/**
 * Changes a segment's name, description or rule. A new rule is checked for missing segments and
 * cycles under the graph lock, and its edges replace the old ones in the same transaction. The
 * cached count is dropped with the old rule.
 */
export async function updateSegment(
  pool: pg.Pool,
  id: string,
  change: { name?: string | undefined; description?: string | undefined; rule?: Rule | undefined; memberId: string | null },
): Promise<SaveSegmentOutcome> {
  return withTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [SEGMENT_GRAPH_LOCK]);
    const { rowCount } = await client.query("SELECT 1 FROM herald.segments WHERE id = $1::bigint FOR UPDATE", [id]);
    if (rowCount === 0) return { kind: "not_found" };
    if (change.rule) {
      const refused = await checkReferences(client, id, change.rule);
      if (refused) return refused;
    }
    await client.query("SAVEPOINT update_segment");
    try {
      await client.query(
        `UPDATE herald.segments SET
           name = coalesce($2, name), description = coalesce($3, description),
           rule = coalesce($4::jsonb, rule),
           last_count = CASE WHEN $4::jsonb IS NULL THEN last_count END,
           last_counted_at = CASE WHEN $4::jsonb IS NULL THEN last_counted_at END,
           updated_by = $5, updated_at = now()
         WHERE id = $1::bigint`,
        [id, change.name ?? null, change.description ?? null, change.rule ? JSON.stringify(change.rule) : null, change.memberId],
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await client.query("ROLLBACK TO SAVEPOINT update_segment");
      return { kind: "name_taken" };
    }
    if (change.rule) await writeDependencies(client, id, change.rule);
    return { kind: "saved", id };
  });
}

/** Deletes a segment unless another segment's rule names it or another row (a broadcast) refers to it. */
export async function deleteSegment(pool: pg.Pool, id: string): Promise<DeleteSegmentOutcome> {
  return withTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [SEGMENT_GRAPH_LOCK]);
    const dependents = await listSegmentDependents(client, id);
    if (dependents.length > 0) return { kind: "in_use", segments: dependents, table: null };
    await client.query("SAVEPOINT delete_segment");
    try {
      const { rows } = await client.query<{ name: string }>("DELETE FROM herald.segments WHERE id = $1::bigint RETURNING name", [id]);
      return rows[0] ? { kind: "deleted", name: rows[0].name } : { kind: "not_found" };
    } catch (error) {
      const e = error as { code?: string; table?: string };
      if (!STILL_REFERENCED.has(e.code ?? "")) throw error;
      await client.query("ROLLBACK TO SAVEPOINT delete_segment");
      return { kind: "in_use", segments: [], table: e.table ?? null };
    }
  });
}

/**
 * Keeps a live count for the list to show without counting again; `rule` is the rule that was
 * counted, so a count that raced an edit of the rule is not kept for the new one.
 */
export async function recordSegmentCount(sql: Sql, id: string, rule: Rule, count: number, at: Date): Promise<void> {
  await sql.query(
    "UPDATE herald.segments SET last_count = $2, last_counted_at = $3 WHERE id = $1::bigint AND rule = $4::jsonb",
    [id, count, at, JSON.stringify(rule)],
  );
}

/** Marks the segment as used (a broadcast started sending to it). */
export async function markSegmentUsed(sql: Sql, id: string, at: Date): Promise<void> {
  await sql.query("UPDATE herald.segments SET last_used_at = greatest(last_used_at, $2::timestamptz) WHERE id = $1::bigint", [id, at]);
}
