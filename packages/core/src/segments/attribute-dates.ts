/**
 * How a segment reads a date out of a user attribute. Attributes are JSON, so a date is a string:
 * an ISO date ("2026-11-30", midnight UTC) or date-time ("2026-11-30T09:00:00.000Z",
 * "2026-11-30T09:00+01:00"; without an offset it is UTC), which is what imports and the REST API
 * store. Anything else — another format, or a day the calendar does not have — is not a date, and
 * a date condition on it is false. `herald.attribute_instant` in the segments migration is the same
 * reading in SQL; packages/db/test/segments/attribute-instant.integration.test.ts holds the two to
 * agreement.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

/** Milliseconds since the epoch (microseconds as the fraction), or null when `text` is not a date. */
export function parseAttributeInstant(text: string): number | null {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", fraction = "", offset = "Z"] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  let offsetMinutes = 0;
  if (offset !== "Z") {
    const digits = offset.replace(":", "");
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5));
    if (hours > 15 || minutes > 59) return null;
    offsetMinutes = (offset.startsWith("-") ? -1 : 1) * (hours * 60 + minutes);
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  const micros = Number(fraction.padEnd(6, "0"));
  return date.getTime() + micros / 1000 - offsetMinutes * 60_000;
}
