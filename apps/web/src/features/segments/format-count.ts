const count = new Intl.NumberFormat();

/** "1,234,567" in the browser's locale. */
export function formatCount(n: number): string {
  return count.format(n);
}

/** "1 user", "1,234 users". */
export function formatUsers(n: number): string {
  return `${formatCount(n)} ${n === 1 ? "user" : "users"}`;
}
