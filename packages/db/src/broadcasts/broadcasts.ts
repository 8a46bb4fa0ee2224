import type { Sql } from "../sql.ts";

export type BroadcastStatus = "draft" | "scheduled" | "sending" | "paused" | "sent" | "canceled";

export interface BroadcastVariantRecord {
  version: number;
  percent: number;
}

/** The fields a marketer composes. */
export interface BroadcastFields {
  name: string;
  segmentId: string;
  templateKey: string;
  variants: BroadcastVariantRecord[];
  channels: Array<"push" | "email" | "sms">;
  category: string;
  lane: "critical" | "bulk";
  holdoutPercent: number;
  throttlePerMinute: number | null;
  data: Record<string, unknown>;
}

export interface BroadcastRecord extends BroadcastFields {
  id: string;
  status: BroadcastStatus;
  segmentName: string | null;
  segmentRule: unknown;
  schedule: Record<string, unknown> | null;
  startsAt: Date | null;
  fanoutAfterUser: string;
  targeted: number;
  heldOut: number;
  fanoutDoneAt: Date | null;
  pauseReason: string | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

const COLUMNS = `b.id::text, b.name, b.status, b.segment_id::text, s.name AS segment_name, b.segment_rule, b.template_key, b.variants,
  b.channels, b.category, b.lane, b.holdout_percent::float8 AS holdout_percent, b.throttle_per_minute, b.data, b.schedule,
  b.starts_at, b.fanout_after_user::text, b.targeted, b.held_out, b.fanout_done_at, b.pause_reason, m.name AS created_by_name,
  b.created_at, b.updated_at, b.started_at, b.finished_at`;
const FROM = `herald.broadcasts b
  LEFT JOIN herald.segments s ON s.id = b.segment_id
  LEFT JOIN herald.members m ON m.id = b.created_by`;

function toBroadcast(r: Record<string, any>): BroadcastRecord {
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    segmentId: r.segment_id,
    segmentName: r.segment_name,
    segmentRule: r.segment_rule,
    templateKey: r.template_key,
    variants: r.variants,
    channels: r.channels,
    category: r.category,
    lane: r.lane,
    holdoutPercent: r.holdout_percent,
    throttlePerMinute: r.throttle_per_minute,
    data: r.data,
    schedule: r.schedule,
    startsAt: r.starts_at,
    fanoutAfterUser: r.fanout_after_user,
    targeted: r.targeted,
    heldOut: r.held_out,
    fanoutDoneAt: r.fanout_done_at,
    pauseReason: r.pause_reason,
    createdBy: r.created_by_name,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

function fieldValues(f: BroadcastFields): unknown[] {
  return [f.name, f.segmentId, f.templateKey, JSON.stringify(f.variants), f.channels, f.category, f.lane, f.holdoutPercent, f.throttlePerMinute, JSON.stringify(f.data)];
}

export async function createBroadcast(sql: Sql, fields: BroadcastFields, memberId: string): Promise<string> {
  const { rows } = await sql.query(
    `INSERT INTO herald.broadcasts (name, segment_id, template_key, variants, channels, category, lane, holdout_percent, throttle_per_minute, data, created_by, updated_by)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10::jsonb, $11, $11) RETURNING id::text`,
    [...fieldValues(fields), memberId],
  );
  return rows[0].id;
}

/** Replaces a draft's fields; false when it is not a draft (or does not exist). */
export async function updateBroadcastDraft(sql: Sql, id: string, fields: BroadcastFields, memberId: string): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE herald.broadcasts SET name = $1, segment_id = $2, template_key = $3, variants = $4::jsonb, channels = $5, category = $6,
            lane = $7, holdout_percent = $8, throttle_per_minute = $9, data = $10::jsonb, updated_by = $11, updated_at = now()
      WHERE id = $12 AND status = 'draft'`,
    [...fieldValues(fields), memberId, id],
  );
  return rowCount === 1;
}

export async function findBroadcast(sql: Sql, id: string): Promise<BroadcastRecord | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM ${FROM} WHERE b.id = $1`, [id]);
  return rows[0] ? toBroadcast(rows[0]) : null;
}

/** Newest first, one page at a time; `before` is the last id of the previous page. */
export async function listBroadcasts(
  sql: Sql,
  { status, before, limit }: { status?: BroadcastStatus | null; before?: string | null; limit: number },
): Promise<{ items: BroadcastRecord[]; nextCursor: string | null }> {
  const { rows } = await sql.query(
    `SELECT ${COLUMNS} FROM ${FROM}
      WHERE ($1::text IS NULL OR b.status = $1) AND ($2::bigint IS NULL OR b.id < $2)
      ORDER BY b.id DESC LIMIT $3`,
    [status ?? null, before ?? null, limit + 1],
  );
  const items = rows.slice(0, limit).map(toBroadcast);
  return { items, nextCursor: rows.length > limit ? items[items.length - 1]!.id : null };
}

export async function deleteBroadcastDraft(sql: Sql, id: string): Promise<boolean> {
  const { rowCount } = await sql.query("DELETE FROM herald.broadcasts WHERE id = $1 AND status = 'draft'", [id]);
  return rowCount === 1;
}

/**
 * Moves a broadcast from one of `from` to `to`, setting the extra columns given; null when its
 * status was not one of `from` (someone else moved it first), so callers never act on a stale read.
 */
export async function transitionBroadcast(
  sql: Sql,
  id: string,
  from: readonly BroadcastStatus[],
  to: BroadcastStatus,
  set: { schedule?: Record<string, unknown> | null; startsAt?: Date | null; pauseReason?: string | null; memberId?: string | null } = {},
): Promise<BroadcastStatus | null> {
  const { rows } = await sql.query(
    `UPDATE herald.broadcasts SET status = $3,
            schedule = CASE WHEN $4 THEN $5::jsonb ELSE schedule END,
            starts_at = CASE WHEN $6 THEN $7::timestamptz ELSE starts_at END,
            pause_reason = CASE WHEN $3 = 'paused' THEN $8 ELSE NULL END,
            finished_at = CASE WHEN $3 IN ('sent', 'canceled') THEN herald.clock() ELSE finished_at END,
            updated_by = coalesce($9, updated_by), updated_at = now()
      WHERE id = $1 AND status = ANY ($2::text[])
      RETURNING status`,
    [id, from, to, set.schedule !== undefined, set.schedule === undefined ? null : JSON.stringify(set.schedule), set.startsAt !== undefined, set.startsAt ?? null, set.pauseReason ?? null, set.memberId ?? null],
  );
  return rows[0]?.status ?? null;
}

/** Freezes who a scheduled broadcast goes to: its segment's rule as it is when sending starts. */
export async function snapshotBroadcastAudience(sql: Sql, id: string, rule: unknown): Promise<void> {
  await sql.query("UPDATE herald.broadcasts SET segment_rule = $2::jsonb, started_at = coalesce(started_at, herald.clock()) WHERE id = $1 AND status = 'scheduled'", [
    id,
    JSON.stringify(rule),
  ]);
}

/** What a composer's references resolve to now; the server words the refusals. */
export interface BroadcastReferenceFacts {
  segmentExists: boolean;
  categoryExists: boolean;
  /** The template's channels, or null when there is no such template. */
  templateChannels: string[] | null;
  publishedVersions: number[];
}

export async function findBroadcastReferences(sql: Sql, refs: { segmentId: string; category: string; templateKey: string }): Promise<BroadcastReferenceFacts> {
  const { rows } = await sql.query(
    `SELECT EXISTS (SELECT 1 FROM herald.segments WHERE id = $1) AS segment_exists,
            EXISTS (SELECT 1 FROM herald.categories WHERE key = $2) AS category_exists,
            (SELECT channels FROM herald.templates WHERE key = $3) AS channels,
            (SELECT coalesce(array_agg(version), '{}') FROM herald.template_versions WHERE template_key = $3 AND status = 'published') AS published`,
    [refs.segmentId, refs.category, refs.templateKey],
  );
  const r = rows[0];
  return { segmentExists: r.segment_exists, categoryExists: r.category_exists, templateChannels: r.channels, publishedVersions: r.published };
}
