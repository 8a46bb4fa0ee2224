import { createRowChecker, ImportMappingSchema, uniqueColumn, type ImportedRecord, type ImportMapping } from "@herald/core";
import {
  beginImport,
  findImport,
  finishImport,
  markImportRowErrors,
  optOutImportedUsers,
  readStagedRows,
  recordImportChunk,
  recordImportedActivities,
  registerImportedDevices,
  suppressImportedAddresses,
  upsertImportedUsers,
  withTransaction,
  type AppliedCounts,
  type StagedRange,
} from "@herald/db";
import type pg from "pg";
import { checkOptOutCategories, type RowFailure } from "./opt-out-categories.ts";

/** How much one job does before it hands over to the next: a shutdown never waits long for it. */
export interface SliceBudget {
  /** Rows read, checked and applied per transaction. */
  chunkRows: number;
  /** A slice starts no further chunk after this long. */
  sliceMs: number;
}

export const DEFAULT_SLICE_BUDGET: SliceBudget = { chunkRows: 5000, sliceMs: 10_000 };

/** "done": every row is processed; "more": queue the next slice; "idle": nothing for this job to do. */
export type SliceOutcome = "done" | "more" | "idle";

/** A mapping that cannot be applied: the import fails with this message instead of retrying. */
export class UnusableMappingError extends Error {
  override name = "UnusableMappingError";
}

class LostRaceError extends Error {}

/**
 * One slice of an import: chunk after chunk, each read from the staging table, checked row by
 * row in memory (refused rows marked with their reason), then applied set-based and recorded in
 * one transaction, so a crash between two chunks loses nothing and redoes nothing. Duplicates
 * are marked first, over the whole file.
 */
export async function runImportSlice(pool: pg.Pool, importId: string, budget: SliceBudget = DEFAULT_SLICE_BUDGET): Promise<SliceOutcome> {
  let current = await findImport(pool, importId);
  if (!current || (current.status !== "queued" && current.status !== "running")) return "idle";
  const parsed = ImportMappingSchema.safeParse(current.mapping);
  if (!parsed.success) throw new UnusableMappingError(`The stored mapping is not valid: ${parsed.error.issues[0]?.message}`);
  const mapping = parsed.data;
  if (current.status === "queued") {
    await withTransaction(pool, (client) => beginImport(client, importId, uniqueColumn(mapping)));
    current = await findImport(pool, importId);
    if (current?.status !== "running") return "idle";
  }

  const check = createRowChecker(mapping, current.header, new Date());
  const deadline = Date.now() + budget.sliceMs;
  let processed = current.processedRows;
  // At least one chunk per slice, however small the budget: every job moves the import on.
  for (let first = true; processed < current.totalRows && (first || Date.now() < deadline); first = false) {
    // Row numbers start at 2 (the header is row 1): rows up to processed + 1 are done.
    const rows = await readStagedRows(pool, importId, processed + 1, budget.chunkRows);
    const toProcessed = rows.length > 0 ? rows[rows.length - 1]!.row - 1 : current.totalRows;
    const failures: RowFailure[] = [];
    const records: Array<{ row: number; record: ImportedRecord }> = [];
    let alreadyFailed = 0;
    for (const staged of rows) {
      if (staged.error !== null) {
        alreadyFailed += 1;
        continue;
      }
      const outcome = check(staged.fields);
      if (outcome.ok) records.push({ row: staged.row, record: outcome.record });
      else failures.push({ row: staged.row, reason: outcome.reason });
    }
    try {
      const range: StagedRange = { importId, fromRow: processed + 2, toRow: toProcessed + 1 };
      await withTransaction(pool, async (client) => {
        // Before applying: devices and activities are read from the rows this leaves unmarked.
        await markImportRowErrors(client, importId, failures);
        const applied = await applyRecords(client, range, mapping, records);
        await markImportRowErrors(client, importId, applied.failures);
        const recorded = await recordImportChunk(client, importId, {
          fromProcessed: processed,
          toProcessed,
          imported: applied.imported,
          created: applied.created,
          updated: applied.updated,
          failed: alreadyFailed + failures.length + applied.failures.length,
        });
        if (!recorded) throw new LostRaceError();
      });
    } catch (error) {
      // Another slice of this import moved on meanwhile: it owns the rest.
      if (error instanceof LostRaceError) return "idle";
      throw error;
    }
    processed = toProcessed;
  }
  if (processed < current.totalRows) return "more";
  await finishImport(pool, importId);
  return "done";
}

async function applyRecords(
  client: pg.PoolClient,
  range: StagedRange,
  mapping: ImportMapping,
  records: ReadonlyArray<{ row: number; record: ImportedRecord }>,
): Promise<AppliedCounts & { imported: number; failures: RowFailure[] }> {
  switch (mapping.kind) {
    case "users": {
      const users = records.flatMap(({ record }) => (record.kind === "users" ? [record] : []));
      return { ...(await upsertImportedUsers(client, users)), imported: users.length, failures: [] };
    }
    case "suppressions": {
      const addresses = records.flatMap(({ record }) => (record.kind === "suppressions" ? [record] : []));
      return { ...(await suppressImportedAddresses(client, range.importId, addresses)), imported: addresses.length, failures: [] };
    }
    case "opt_outs": {
      const optOuts = records.flatMap(({ row, record }) => (record.kind === "opt_outs" ? [{ row, record }] : []));
      const { accepted, failures } = await checkOptOutCategories(client, optOuts);
      const counts = await optOutImportedUsers(client, accepted.map((a) => a.record));
      return { ...counts, imported: accepted.length, failures };
    }
    case "devices": {
      const counts = await registerImportedDevices(client, range, mapping);
      return { ...counts, imported: records.length, failures: [] };
    }
    case "activities": {
      const counts = await recordImportedActivities(client, range, {
        userId: mapping.userId,
        name: mapping.name,
        occurredAt: mapping.occurredAt,
        key: mapping.key ?? null,
        properties: mapping.properties ?? null,
      });
      return { ...counts, imported: records.length, failures: [] };
    }
  }
}
