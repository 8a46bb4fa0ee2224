/** Deliberately loose: the server decides what a valid address is; this only catches typos early. */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+$/.test(value.trim());
}
