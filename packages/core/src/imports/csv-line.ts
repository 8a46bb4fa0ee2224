// A cell a spreadsheet would run as a formula: "=", "@", a tab or CR first, or "+"/"-" not
// followed by a digit (so phone numbers and negative numbers stay as they are).
const FORMULA = /^(?:[=@\t\r]|[+-](?![\d.]))/;

/**
 * One line of a CSV file Herald writes (the error report): every cell quoted, quotes doubled,
 * and cells that would run as a formula in a spreadsheet prefixed with "'" (CSV injection).
 */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map((cell) => `"${(FORMULA.test(cell) ? `'${cell}` : cell).replace(/"/g, '""')}"`).join(",")}\r\n`;
}
