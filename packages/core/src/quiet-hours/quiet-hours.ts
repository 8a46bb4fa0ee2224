import { z } from "zod";
import { TimeZoneSchema } from "../time/time-zone.ts";
import { addWallDays, fromWallTime, toWallTime } from "../time/wall-time.ts";

const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** A local clock time "HH:MM", 00:00 to 23:59. */
export const ClockTimeSchema = z.string().regex(CLOCK_TIME, {
  error: (issue) => `${JSON.stringify(issue.input)} is not a clock time: use HH:MM from 00:00 to 23:59, such as "22:00"`,
});
export type ClockTime = z.infer<typeof ClockTimeSchema>;

/** Minutes since midnight of a clock time such as "22:00" (1320). */
export function parseClockTime(value: string): number {
  const match = CLOCK_TIME.exec(value);
  if (!match) throw new RangeError(`${JSON.stringify(value)} is not a clock time: use HH:MM from 00:00 to 23:59`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** A daily quiet window, its zone when it is not the user's own; when end is before start it runs past midnight. */
export const QuietWindowSchema = z
  .object({ start: ClockTimeSchema, end: ClockTimeSchema, timezone: TimeZoneSchema.optional() })
  .refine((window) => window.start !== window.end, {
    error: (issue) => {
      const { start } = issue.input as { start: string };
      return `start and end are both "${start}": a quiet window must have a length`;
    },
    path: ["end"],
  });
export type QuietWindow = z.infer<typeof QuietWindowSchema>;

/** The clock times of a window; the zone is an argument because it may be the user's. */
export type QuietWindowTimes = Pick<QuietWindow, "start" | "end">;

function localMinutes(now: Date, timeZone: string): number {
  const wall = toWallTime(now, timeZone);
  return wall.hour * 60 + wall.minute;
}

/** Whether `now` falls inside the window in `timeZone`: start inclusive, end exclusive. */
export function isInQuietWindow(now: Date, window: QuietWindowTimes, timeZone: string): boolean {
  const start = parseClockTime(window.start);
  const end = parseClockTime(window.end);
  const minutes = localMinutes(now, timeZone);
  if (start < end) return minutes >= start && minutes < end;
  if (start > end) return minutes >= start || minutes < end;
  return false;
}

/**
 * The instant the window ends when `now` is inside it, else null. An end time skipped by a
 * spring-forward jump ends the window when the clocks jump; an end time that occurs twice ends
 * it at the first occurrence still ahead of `now`.
 */
export function quietWindowEnd(now: Date, window: QuietWindowTimes, timeZone: string): Date | null {
  if (!isInQuietWindow(now, window, timeZone)) return null;
  const end = parseClockTime(window.end);
  const today = toWallTime(now, timeZone);
  // Inside a window that crosses midnight, before midnight the end is tomorrow's.
  const endsTomorrow = end < today.hour * 60 + today.minute;
  const wall = { ...(endsTomorrow ? addWallDays(today, 1) : today), hour: Math.floor(end / 60), minute: end % 60, second: 0 };
  const earlier = fromWallTime(wall, timeZone, "earlier");
  // During the repeated hour after clocks fall back, the first occurrence may already be past.
  return earlier > now ? earlier : fromWallTime(wall, timeZone, "later");
}
