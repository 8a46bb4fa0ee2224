import type { ImportedOptOut } from "@herald/core";
import { resolveCategories, type Sql } from "@herald/db";

/** A row's refusal, by its number in the file. */
export interface RowFailure {
  row: number;
  reason: string;
}

/**
 * Opt-outs whose category exists and may be switched off, with aliases resolved to their
 * category; the rest refused with why. The same answer for the preview and the import.
 */
export async function checkOptOutCategories(
  sql: Sql,
  optOuts: ReadonlyArray<{ row: number; record: ImportedOptOut }>,
): Promise<{ accepted: Array<{ row: number; record: ImportedOptOut }>; failures: RowFailure[] }> {
  const categories = await resolveCategories(
    sql,
    optOuts.map((o) => o.record.category),
  );
  const accepted: Array<{ row: number; record: ImportedOptOut }> = [];
  const failures: RowFailure[] = [];
  for (const { row, record } of optOuts) {
    const found = categories.get(record.category);
    if (!found?.category) failures.push({ row, reason: `category "${record.category}" does not exist` });
    else if (found.mandatory) failures.push({ row, reason: `category "${found.category}" is mandatory: nobody can opt out of it` });
    else accepted.push({ row, record: { ...record, category: found.category } });
  }
  return { accepted, failures };
}
