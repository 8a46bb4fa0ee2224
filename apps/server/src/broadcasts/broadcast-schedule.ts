import { fromWallTime, type BroadcastSchedule } from "@herald/core";

/** The zones where a wall-clock time comes first and last (UTC+14 and UTC−12). */
const EARLIEST_ZONE = "Pacific/Kiritimati";
const LATEST_ZONE = "Etc/GMT+12";

function wallOf(localDateTime: string) {
  const [date, time] = localDateTime.split("T") as [string, string];
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const [hour, minute, second = 0] = time.split(":").map(Number) as [number, number, number?];
  return { year, month, day, hour, minute, second };
}

/**
 * When the start job runs: now, the instant, or — for a local-time schedule — the moment the
 * earliest zone on Earth reaches that wall-clock time (each row then waits for its own zone).
 * Refuses a schedule entirely in the past: an instant before now, or a local time already past
 * in the last zone to reach it.
 */
export function startInstant(schedule: BroadcastSchedule, now: Date): { ok: true; at: Date } | { ok: false; reason: string } {
  if (schedule.kind === "now") return { ok: true, at: now };
  if (schedule.kind === "at") {
    const at = new Date(schedule.at);
    if (at.getTime() < now.getTime() - 60_000) return { ok: false, reason: `${schedule.at} is in the past` };
    return { ok: true, at };
  }
  const wall = wallOf(schedule.localDateTime);
  const last = fromWallTime(wall, LATEST_ZONE);
  if (last.getTime() < now.getTime()) return { ok: false, reason: `${schedule.localDateTime} has already passed in every time zone` };
  return { ok: true, at: fromWallTime(wall, EARLIEST_ZONE) };
}
