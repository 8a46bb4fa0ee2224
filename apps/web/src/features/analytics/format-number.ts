const count = new Intl.NumberFormat("en-US");

/** "1,234,567": the same digits in the table, the tooltip and the CSV, whatever the browser's locale. */
export function formatNumber(n: number): string {
  return count.format(n);
}
