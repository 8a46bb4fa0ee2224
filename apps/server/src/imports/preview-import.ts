import { createRowChecker, uniqueColumn, type ImportedRecord, type ImportMapping } from "@herald/core";
import type { Sql } from "@herald/db";
import { checkOptOutCategories } from "./opt-out-categories.ts";

/** One sample row as the import would treat it. */
export type PreviewRow = { row: number; cells: string[] } & ({ ok: true; record: ImportedRecord } | { ok: false; reason: string });

/**
 * The sample rows as they would be imported: the same row check, the same duplicate rule (an
 * id's or a token's first row wins) and the same category lookup as the import itself, over
 * the sample only.
 */
export async function previewImport(
  sql: Sql,
  header: readonly string[],
  sample: readonly string[][],
  mapping: ImportMapping,
  now: Date,
): Promise<PreviewRow[]> {
  const check = createRowChecker(mapping, header, now);
  const unique = uniqueColumn(mapping);
  const firstRowOf = new Map<string, number>();
  const rows: PreviewRow[] = sample.map((cells, index) => {
    const row = index + 2;
    const outcome = check(cells);
    const value = outcome.ok ? uniqueValue(outcome.record) : null;
    if (unique === null || value === null) return { row, cells, ...outcome };
    const first = firstRowOf.get(value);
    if (first !== undefined) return { row, cells, ok: false, reason: `duplicate ${unique.label}: first on row ${first}` };
    firstRowOf.set(value, row);
    return { row, cells, ...outcome };
  });
  const optOuts = rows.flatMap((r) => (r.ok && r.record.kind === "opt_outs" ? [{ row: r.row, record: r.record }] : []));
  if (optOuts.length === 0) return rows;
  const { accepted, failures } = await checkOptOutCategories(sql, optOuts);
  const verdicts = new Map<number, PreviewRow>();
  for (const a of accepted) verdicts.set(a.row, { row: a.row, cells: rows[a.row - 2]!.cells, ok: true, record: a.record });
  for (const f of failures) verdicts.set(f.row, { row: f.row, cells: rows[f.row - 2]!.cells, ok: false, reason: f.reason });
  return rows.map((r) => verdicts.get(r.row) ?? r);
}

/** The value a file may hold once (uniqueColumn), as the record holds it. */
function uniqueValue(record: ImportedRecord): string | null {
  switch (record.kind) {
    case "users":
      return record.externalId;
    case "devices":
      return record.token;
    case "suppressions":
    case "opt_outs":
    case "activities":
      return null;
  }
}
