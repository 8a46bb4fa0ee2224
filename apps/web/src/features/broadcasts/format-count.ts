const count = new Intl.NumberFormat();

/** "1,234,567" in the browser's locale. */
export function formatCount(n: number): string {
  return count.format(n);
}

/** "4 min", "2 h 5 min", "under a minute": an ETA. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return "under a minute";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours < 48) return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
  return `${Math.round(hours / 24)} days`;
}

/** "12.5 %" from a share between 0 and 1. */
export function formatPercent(share: number): string {
  return `${Math.round(share * 1000) / 10} %`;
}
