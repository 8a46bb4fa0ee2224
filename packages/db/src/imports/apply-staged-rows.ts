import type { Sql } from "../sql.ts";
import type { AppliedCounts } from "./apply-import-records.ts";

/**
 * Devices and activities are imported straight from the staging table, INSERT … SELECT over a
 * chunk's rows: the row check (packages/core) has already marked every row it refuses, so the
 * rows left without an error are exactly the good ones, and their cells are read here the way
 * the check read them (trimmed of spaces and tabs, the same btrim as the duplicate pass).
 */

/** Rows `fromRow` .. `toRow` of an import (file row numbers, the header being row 1). */
export interface StagedRange {
  importId: string;
  fromRow: number;
  toRow: number;
}

const CELL = (param: string) => `btrim(r.fields ->> ${param}::int, E' \\t')`;

/**
 * Users the chunk names that Herald has not seen are created bare, as the REST API does for a
 * device or an activity of an unknown user. Existing users are skipped before the insert, so a
 * million rows about a thousand users burn no million identity values.
 */
async function createMissingUsers(sql: Sql, range: StagedRange, userColumn: number): Promise<void> {
  await sql.query(
    `INSERT INTO herald.users (external_id)
     SELECT DISTINCT ${CELL("$4")} FROM herald.import_rows r
      WHERE r.import_id = $1 AND r.row_number BETWEEN $2 AND $3 AND r.error IS NULL
        AND NOT EXISTS (SELECT 1 FROM herald.users u WHERE u.external_id = ${CELL("$4")})
     ON CONFLICT (external_id) DO NOTHING`,
    [range.importId, range.fromRow, range.toRow, userColumn],
  );
}

/** Where a devices import reads its cells; `platform` is a column, or one value for every row. */
export interface DeviceColumns {
  userId: number;
  token: number;
  platform: { column: number } | { fixed: string };
}

/**
 * Registers a chunk's tokens exactly as `POST /users/:userId/devices` does (registerDevice): a
 * token belongs to whoever registered it last, so it moves to this row's user, and it is active
 * again even if it was unregistered or reported invalid. Tokens are unique within the file (the
 * duplicate pass marked repeats), so no row is written twice. `updated` counts tokens that
 * already existed.
 */
export async function registerImportedDevices(sql: Sql, range: StagedRange, columns: DeviceColumns): Promise<AppliedCounts> {
  await createMissingUsers(sql, range, columns.userId);
  const { rows } = await sql.query<AppliedCounts>(
    `WITH written AS (
       INSERT INTO herald.devices AS d (user_id, token, platform)
       SELECT u.id, ${CELL("$5")}, coalesce($6::text, lower(${CELL("$7")}))
         FROM herald.import_rows r JOIN herald.users u ON u.external_id = ${CELL("$4")}
        WHERE r.import_id = $1 AND r.row_number BETWEEN $2 AND $3 AND r.error IS NULL
       ON CONFLICT (token) DO UPDATE SET user_id = EXCLUDED.user_id, platform = EXCLUDED.platform, active = true,
         deactivated_reason = NULL, deactivated_at = NULL, updated_at = now()
       RETURNING (xmax = 0) AS created
     )
     SELECT count(*) FILTER (WHERE created)::int AS created, count(*) FILTER (WHERE NOT created)::int AS updated FROM written`,
    [
      range.importId,
      range.fromRow,
      range.toRow,
      columns.userId,
      columns.token,
      "fixed" in columns.platform ? columns.platform.fixed : null,
      "column" in columns.platform ? columns.platform.column : null,
    ],
  );
  return rows[0]!;
}

/** Where an activities import reads its cells; key and properties are optional columns. */
export interface ActivityColumns {
  userId: number;
  name: number;
  occurredAt: number;
  key: number | null;
  properties: number | null;
}

/**
 * Records a chunk's activities with plain INSERTs (triggers on herald.activities see every row).
 * A row's activity key is its own, or, when it has none, one derived from what the row says
 * (`import:` and the SHA-256 of name, instant and properties), so importing the same file again
 * records nothing twice, just as a retried `POST /users/:userId/activities` with its `id` is
 * recorded once. `created` counts activities recorded; `updated` those already there.
 */
export async function recordImportedActivities(sql: Sql, range: StagedRange, columns: ActivityColumns): Promise<AppliedCounts> {
  await createMissingUsers(sql, range, columns.userId);
  const { rows } = await sql.query<{ good: number; created: number }>(
    `WITH staged AS (
       SELECT u.id AS user_id, ${CELL("$5")} AS name, ${CELL("$6")}::timestamptz AS occurred_at,
              nullif(${CELL("$7")}, '') AS activity_key, coalesce(nullif(${CELL("$8")}, '')::jsonb, '{}'::jsonb) AS properties
         FROM herald.import_rows r JOIN herald.users u ON u.external_id = ${CELL("$4")}
        WHERE r.import_id = $1 AND r.row_number BETWEEN $2 AND $3 AND r.error IS NULL
     ), written AS (
       INSERT INTO herald.activities (user_id, name, activity_key, properties, occurred_at)
       SELECT user_id, name,
              coalesce(activity_key, 'import:' || encode(sha256(convert_to(
                concat_ws(E'\\x1f', name, (extract(epoch FROM occurred_at) * 1000000)::bigint, properties::text), 'UTF8')), 'hex')),
              properties, occurred_at
         FROM staged
       ON CONFLICT (user_id, activity_key) DO NOTHING
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM staged)::int AS good, (SELECT count(*) FROM written)::int AS created`,
    [range.importId, range.fromRow, range.toRow, columns.userId, columns.name, columns.occurredAt, columns.key, columns.properties],
  );
  const { good, created } = rows[0]!;
  return { created, updated: good - created };
}
