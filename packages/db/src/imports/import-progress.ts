import type { Sql } from "../sql.ts";

/** A staged row as read for checking: its cells, and a reason when it is already known to be bad. */
export interface StagedRow {
  row: number;
  fields: string[];
  error: string | null;
}

/** A column whose value the file may hold once, and what a repeat is called ("external id", "token"). */
export interface UniqueColumn {
  column: number;
  label: string;
}

/**
 * Moves a queued import to running. When the kind has a column a file may hold once (a user's
 * external id, a device's token) it first marks every later row that repeats an earlier row's
 * value (trimmed of spaces and tabs, as the row check trims it): the whole file in one
 * set-based statement, once, so the chunks need not know each other.
 * Call it in a transaction; false when the import was not queued (another slice began it).
 */
export async function beginImport(sql: Sql, id: string, unique: UniqueColumn | null): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE herald.imports SET status = 'running', started_at = now(), updated_at = now() WHERE id = $1 AND status = 'queued'`,
    [id],
  );
  if (rowCount !== 1) return false;
  if (unique !== null) {
    await sql.query(
      `UPDATE herald.import_rows r SET error = 'duplicate ' || $3 || ': first on row ' || d.first_row
         FROM (SELECT row_number, min(row_number) OVER (PARTITION BY btrim(fields ->> $2::int, E' \\t')) AS first_row
                 FROM herald.import_rows
                WHERE import_id = $1 AND btrim(fields ->> $2::int, E' \\t') <> '') d
        WHERE r.import_id = $1 AND r.row_number = d.row_number AND d.row_number <> d.first_row`,
      [id, unique.column, unique.label],
    );
  }
  return true;
}

/**
 * The `limit` staged rows after row `afterRow`, in file order. Rows are numbered without gaps
 * and none after the resume point is gone yet, so they are exactly rows afterRow + 1 ..
 * afterRow + limit. Saying so bounds the scan: the staging table is never analysed between its
 * COPY and the import, and with `row_number > x … LIMIT` alone the planner, expecting a few
 * thousand rows, read every remaining row of a million-row file for each chunk (0.7 s a chunk
 * at 40% of an activities import, EXPLAIN ANALYZE; the import slowed as the file grew).
 */
export async function readStagedRows(sql: Sql, id: string, afterRow: number, limit: number): Promise<StagedRow[]> {
  const { rows } = await sql.query<{ row_number: number; fields: string[]; error: string | null }>(
    `SELECT row_number, fields, error FROM herald.import_rows
      WHERE import_id = $1 AND row_number > $2 AND row_number <= $2::int + $3::int ORDER BY row_number LIMIT $3`,
    [id, afterRow, limit],
  );
  return rows.map((r) => ({ row: r.row_number, fields: r.fields, error: r.error }));
}

/** What one chunk did, to be recorded with its writes. */
export interface ChunkOutcome {
  /** processed_rows before the chunk: recording fails if another slice moved it meanwhile. */
  fromProcessed: number;
  toProcessed: number;
  imported: number;
  created: number;
  updated: number;
  /** Rows refused in this chunk, their reasons already marked (markImportRowErrors) or marked before the chunk. */
  failed: number;
}

/**
 * Gives refused rows their reasons (the error report). Marked before a chunk is applied, they
 * also keep a kind that imports straight from the staging rows from reading them.
 */
export async function markImportRowErrors(sql: Sql, id: string, failures: ReadonlyArray<{ row: number; reason: string }>): Promise<void> {
  if (failures.length === 0) return;
  await sql.query(
    `UPDATE herald.import_rows r SET error = f.reason
       FROM jsonb_to_recordset($2::jsonb) AS f(row integer, reason text)
      WHERE r.import_id = $1 AND r.row_number = f.row`,
    [id, JSON.stringify(failures)],
  );
}

/**
 * Records a chunk in the transaction that applied it: the applied rows leave the staging table
 * (the refused ones, marked, stay as the error report), the counters move. False when the
 * import is no longer where this chunk started (a concurrent slice), so the caller rolls back.
 */
export async function recordImportChunk(sql: Sql, id: string, chunk: ChunkOutcome): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE herald.imports
        SET processed_rows = $3, imported_rows = imported_rows + $4, failed_rows = failed_rows + $5,
            created_count = created_count + $6, updated_count = updated_count + $7, updated_at = now()
      WHERE id = $1 AND status = 'running' AND processed_rows = $2`,
    [id, chunk.fromProcessed, chunk.toProcessed, chunk.imported, chunk.failed, chunk.created, chunk.updated],
  );
  if (rowCount !== 1) return false;
  // Rows 2 .. processed + 1 are this import's rows so far (the header is row 1).
  await sql.query("DELETE FROM herald.import_rows WHERE import_id = $1 AND row_number BETWEEN $2 AND $3 AND error IS NULL", [
    id,
    chunk.fromProcessed + 2,
    chunk.toProcessed + 1,
  ]);
  return true;
}

/** Marks a running import whose every row is processed as done; false while rows remain. */
export async function finishImport(sql: Sql, id: string): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE herald.imports SET status = 'done', finished_at = now(), updated_at = now()
      WHERE id = $1 AND status = 'running' AND processed_rows = total_rows`,
    [id],
  );
  return rowCount === 1;
}
