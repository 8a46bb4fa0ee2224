import type { DiffLine } from "./template-types.ts";

/** One row of a side-by-side diff: the old line on the left, the new one on the right. */
export type DiffRow = { left: DiffLine | null; right: DiffLine | null };

/**
 * Lays a unified line diff out side by side: unchanged lines face themselves, and each run of
 * removed lines faces the run of added lines that replaced it, row by row, the shorter run
 * padded with blanks.
 */
export function sideBySide(lines: readonly DiffLine[]): DiffRow[] {
  const rows: DiffRow[] = [];
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
  const flush = () => {
    for (let index = 0; index < Math.max(removed.length, added.length); index++) {
      rows.push({ left: removed[index] ?? null, right: added[index] ?? null });
    }
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.kind === "removed") removed.push(line);
    else if (line.kind === "added") added.push(line);
    else {
      flush();
      rows.push({ left: line, right: line });
    }
  }
  flush();
  return rows;
}
