/** An audit entry's detail as one line: plain strings as they are, anything else as compact JSON. */
export function formatDetail(detail: unknown): string | null {
  if (detail === null || detail === undefined) return null;
  if (typeof detail === "string") return detail;
  if (typeof detail === "object" && Object.keys(detail).length === 0) return null;
  try {
    return JSON.stringify(detail);
  } catch {
    return String(detail);
  }
}
