import type { Sql } from "../sql.ts";

export type ImportStatus = "uploaded" | "queued" | "running" | "done" | "failed";

/** An import as the list shows it: the file, what it became, and how far it got. */
export interface ImportSummary {
  id: string;
  fileName: string;
  byteSize: number;
  kind: "users" | "suppressions" | "opt_outs" | "devices" | "activities" | null;
  status: ImportStatus;
  totalRows: number;
  processedRows: number;
  importedRows: number;
  failedRows: number;
  createdCount: number;
  updatedCount: number;
  failure: string | null;
  createdBy: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** An import with what mapping needs: the header, the first rows, the delimiter and the mapping. */
export interface ImportDetail extends ImportSummary {
  delimiter: string;
  header: string[];
  sample: string[][];
  mapping: unknown;
}

const SUMMARY = `i.id::text, i.file_name, i.byte_size, i.kind, i.status, i.total_rows, i.processed_rows, i.imported_rows,
  i.failed_rows, i.created_count, i.updated_count, i.failure, m.name AS created_by, i.created_at, i.started_at, i.finished_at`;

function toSummary(r: Record<string, any>): ImportSummary {
  return {
    id: r.id,
    fileName: r.file_name,
    byteSize: Number(r.byte_size),
    kind: r.kind,
    status: r.status,
    totalRows: r.total_rows,
    processedRows: r.processed_rows,
    importedRows: r.imported_rows,
    failedRows: r.failed_rows,
    createdCount: r.created_count,
    updatedCount: r.updated_count,
    failure: r.failure,
    createdBy: r.created_by,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

export async function findImport(sql: Sql, id: string): Promise<ImportDetail | null> {
  const { rows } = await sql.query(
    `SELECT ${SUMMARY}, i.delimiter, i.header, i.sample, i.mapping
       FROM herald.imports i LEFT JOIN herald.members m ON m.id = i.created_by
      WHERE i.id = $1`,
    [id],
  );
  const r = rows[0];
  return r ? { ...toSummary(r), delimiter: r.delimiter, header: r.header, sample: r.sample, mapping: r.mapping } : null;
}

/** Newest first, keyset-paged: `cursor` is the last id of the previous page. */
export async function listImports(sql: Sql, options: { cursor: string | null; limit: number }): Promise<{ items: ImportSummary[]; nextCursor: string | null }> {
  const { rows } = await sql.query(
    `SELECT ${SUMMARY}
       FROM herald.imports i LEFT JOIN herald.members m ON m.id = i.created_by
      WHERE $1::bigint IS NULL OR (i.created_at, i.id) < (SELECT created_at, id FROM herald.imports WHERE id = $1::bigint)
      ORDER BY i.created_at DESC, i.id DESC
      LIMIT $2`,
    [options.cursor, options.limit + 1],
  );
  const items = rows.slice(0, options.limit).map(toSummary);
  return { items, nextCursor: rows.length > options.limit ? items[items.length - 1]!.id : null };
}

export type StartImportResult = "started" | "not_found" | "already_started";

/**
 * Gives an uploaded import its mapping and queues the job that applies it, in one statement:
 * an import is started once, and never without its job.
 */
export async function startImport(sql: Sql, id: string, start: { kind: string; mapping: unknown }): Promise<StartImportResult> {
  const { rows } = await sql.query<{ started: boolean; exists: boolean }>(
    `WITH started AS (
       UPDATE herald.imports SET kind = $2, mapping = $3::jsonb, status = 'queued', updated_at = now()
        WHERE id = $1 AND status = 'uploaded'
       RETURNING id
     ), queued AS (
       SELECT graphile_worker.add_job('import_csv', json_build_object('importId', id::text),
                job_key := 'import:' || id, max_attempts := ${IMPORT_JOB_ATTEMPTS}) FROM started
     )
     SELECT (SELECT count(*) FROM queued) = 1 AS started, EXISTS (SELECT 1 FROM herald.imports WHERE id = $1) AS exists`,
    [id, start.kind, JSON.stringify(start.mapping)],
  );
  const r = rows[0]!;
  return r.started ? "started" : r.exists ? "already_started" : "not_found";
}

/** Attempts of one slice of an import before the import is marked failed. */
export const IMPORT_JOB_ATTEMPTS = 5;

/** Queues the next slice of a running import (the key keeps it to one waiting job per import). */
export async function enqueueImportSlice(sql: Sql, id: string): Promise<void> {
  await sql.query(
    `SELECT graphile_worker.add_job('import_csv', json_build_object('importId', $1::text),
              job_key := 'import:' || $1, max_attempts := ${IMPORT_JOB_ATTEMPTS})`,
    [id],
  );
}

export async function markImportFailed(sql: Sql, id: string, failure: string): Promise<void> {
  await sql.query(
    `UPDATE herald.imports SET status = 'failed', failure = $2, finished_at = now(), updated_at = now()
      WHERE id = $1 AND status IN ('queued', 'running')`,
    [id, failure.slice(0, 2000)],
  );
}

export type DiscardImportResult = "discarded" | "not_found" | "in_progress";

/** Deletes an import that is not being applied, with its staged rows and error report. */
export async function discardImport(sql: Sql, id: string): Promise<DiscardImportResult> {
  const { rows } = await sql.query<{ discarded: boolean; exists: boolean }>(
    `WITH gone AS (
       DELETE FROM herald.imports WHERE id = $1 AND status NOT IN ('queued', 'running') RETURNING id
     ), rows_gone AS (
       -- Runs to completion whether or not the query below reads it, as every data-modifying CTE does.
       DELETE FROM herald.import_rows WHERE import_id IN (SELECT id FROM gone)
     )
     SELECT EXISTS (SELECT 1 FROM gone) AS discarded, EXISTS (SELECT 1 FROM herald.imports WHERE id = $1) AS exists`,
    [id],
  );
  const r = rows[0]!;
  return r.discarded ? "discarded" : r.exists ? "in_progress" : "not_found";
}

/** A bad row: its number in the file, why it was refused, and its cells as read. */
export interface ImportError {
  row: number;
  reason: string;
  fields: string[];
}

/** The bad rows after `afterRow`, in file order. */
export async function listImportErrors(sql: Sql, id: string, options: { afterRow: number; limit: number }): Promise<ImportError[]> {
  const { rows } = await sql.query<{ row_number: number; error: string; fields: string[] }>(
    `SELECT row_number, error, fields FROM herald.import_rows
      WHERE import_id = $1 AND row_number > $2 AND error IS NOT NULL
      ORDER BY row_number LIMIT $3`,
    [id, options.afterRow, options.limit],
  );
  return rows.map((r) => ({ row: r.row_number, reason: r.error, fields: r.fields }));
}
