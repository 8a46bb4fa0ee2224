/** The delimiters an upload may use; the first line decides which. */
export const IMPORT_DELIMITERS = [",", ";", "\t", "|"] as const;
export type ImportDelimiter = (typeof IMPORT_DELIMITERS)[number];

/**
 * The delimiter of a CSV file, from its first line (quoted text ignored): whichever candidate
 * occurs most, a comma when none does. Spreadsheets in many locales save ";" and call it CSV.
 */
export function sniffDelimiter(firstLine: string): ImportDelimiter {
  const counts = new Map<ImportDelimiter, number>(IMPORT_DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char as ImportDelimiter)) counts.set(char as ImportDelimiter, counts.get(char as ImportDelimiter)! + 1);
  }
  let best: ImportDelimiter = ",";
  for (const [delimiter, count] of counts) if (count > counts.get(best)!) best = delimiter;
  return best;
}
