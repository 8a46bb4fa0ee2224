/**
 * Reading one CSV cell as a typed value. Spreadsheets pad cells and format numbers for people;
 * these accept what exports commonly contain and refuse anything ambiguous.
 */

/**
 * A cell without the spaces and tabs around it. Only those two: the staging SQL that finds
 * duplicate ids trims the same characters (`btrim(x, E' \t')`), so both agree on every id.
 */
export function trimCell(cell: string | undefined): string {
  return (cell ?? "").replace(/^[ \t]+|[ \t]+$/g, "");
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A plain decimal number ("12", "-3.5", "1e3"); null for "12,5", "1 000", "NaN" and the like. */
export function parseNumberCell(text: string): number | null {
  if (!NUMBER.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

const TRUE = new Set(["true", "yes", "y", "1", "t"]);
const FALSE = new Set(["false", "no", "n", "0", "f"]);

/** true/false, yes/no, y/n, 1/0, t/f in any case; null for anything else. */
export function parseBooleanCell(text: string): boolean | null {
  const lower = text.toLowerCase();
  return TRUE.has(lower) ? true : FALSE.has(lower) ? false : null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * An ISO 8601 date ("2026-11-30", kept as written) or date-time ("2026-11-30T09:00:00+01:00",
 * stored as the UTC instant). A date-time without an offset is read as UTC. Null when the text
 * is not one, or names a day the calendar does not have.
 */
export function parseDateCell(text: string): string | null {
  const date = DATE.exec(text);
  if (date) return isCalendarDate(Number(date[1]), Number(date[2]), Number(date[3])) ? text : null;
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s = "0", fraction = "0", offset = "Z"] = match;
  if (!isCalendarDate(Number(y), Number(mo), Number(d)) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  let offsetMinutes = 0;
  if (offset.toUpperCase() !== "Z") {
    const digits = offset.replace(":", "");
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5));
    if (hours > 15 || minutes > 59) return null;
    offsetMinutes = (digits.startsWith("-") ? -1 : 1) * (hours * 60 + minutes);
  }
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(fraction.padEnd(3, "0").slice(0, 3)));
  return new Date(utc - offsetMinutes * 60_000).toISOString();
}

/** A phone number without the spaces, dots, dashes and parentheses people write into it. */
export function compactPhone(text: string): string {
  return text.replace(/[\s.()-]/g, "");
}
