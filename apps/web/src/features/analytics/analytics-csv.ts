/** One column of a chart's table: its heading and how a row shows in it (the CSV writes the same text). */
export interface Column<Row> {
  heading: string;
  value: (row: Row) => string | number;
  numeric?: boolean;
}

function csvCell(value: string | number): string {
  const text = String(value);
  // Quote anything a spreadsheet would split or read as a formula.
  return /[",\n\r]/.test(text) || /^[=+\-@]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The table as CSV: the headings, then one line per row, exactly as the table view shows them. */
export function tableCsv<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  return [columns.map((c) => csvCell(c.heading)).join(","), ...rows.map((row) => columns.map((c) => csvCell(c.value(row))).join(","))].join("\n") + "\n";
}

/** Hands a CSV to the browser as a download named `name`. */
export function downloadCsv(name: string, csv: string) {
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has been handled: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
