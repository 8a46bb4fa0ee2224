/** A local date and clock time in some time zone (month 1–12). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = FORMATTERS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    FORMATTERS.set(timeZone, format);
  }
  return format;
}

/** The wall time shown by a clock in `timeZone` at `instant`. */
export function toWallTime(instant: Date, timeZone: string): WallTime {
  const fields: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year ?? NaN,
    month: fields.month ?? NaN,
    day: fields.day ?? NaN,
    hour: fields.hour ?? NaN,
    minute: fields.minute ?? NaN,
    second: fields.second ?? NaN,
  };
}

/** The wall time read as if it were UTC: the arithmetic currency of this module. */
function wallAsUtc(wall: WallTime): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
}

/** The zone's offset from UTC at an instant, in milliseconds (whole seconds). */
function offsetAt(time: number, timeZone: string): number {
  const whole = Math.floor(time / 1000) * 1000;
  return wallAsUtc(toWallTime(new Date(whole), timeZone)) - whole;
}

const DAY_MS = 86_400_000;

/**
 * The instant a clock in `timeZone` shows `wall`. A wall time that occurs twice (the repeated
 * hour when clocks fall back) gives the earlier instant, or the later one with `prefer: "later"`;
 * a wall time skipped when clocks spring forward gives the first instant after the gap.
 * Assumes at most one offset change within a day of the wall time, true of every zone today.
 */
export function fromWallTime(wall: WallTime, timeZone: string, prefer: "earlier" | "later" = "earlier"): Date {
  const local = wallAsUtc(wall);
  const before = offsetAt(local - DAY_MS, timeZone);
  const after = offsetAt(local + DAY_MS, timeZone);
  const candidates = [...new Set([local - before, local - after])]
    .filter((time) => offsetAt(time, timeZone) === local - time)
    .sort((a, b) => a - b);
  const chosen = prefer === "earlier" ? candidates[0] : candidates[candidates.length - 1];
  if (chosen !== undefined) return new Date(chosen);

  // A gap: local − before lies after the change and local − after before it. Search the
  // instant the offset changes, to the second; that is the first instant after the gap.
  let low = local - after;
  let high = local - before;
  while (high - low > 1000) {
    const middle = low + Math.floor((high - low) / 2000) * 1000;
    if (offsetAt(middle, timeZone) === before) low = middle;
    else high = middle;
  }
  return new Date(high);
}

/** The calendar date `days` after the wall time's date, keeping its clock time. */
export function addWallDays(wall: WallTime, days: number): WallTime {
  const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return { ...wall, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}
