const count = new Intl.NumberFormat();

/** "1,234,567" in the browser's locale. */
export function formatCount(n: number): string {
  return count.format(n);
}

/** "12.3 MiB": sizes as the upload limit is written. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
