import { formatDateTime } from "../../lib/format-date.ts";

/** A schedule as the server stores it (or the composer reads it). */
export type ScheduleLike = { kind: string; at?: unknown; timezone?: unknown; localDateTime?: unknown } | null;

const localFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** "Now", "24 Dec 2026, 09:00 (Europe/Paris)", "24 Dec 2026, 09:00 in each recipient's time zone". */
export function describeSchedule(schedule: ScheduleLike): string {
  if (!schedule || schedule.kind === "now") return "Now, as soon as it is confirmed";
  if (schedule.kind === "at" && typeof schedule.at === "string") {
    const zone = typeof schedule.timezone === "string" ? schedule.timezone : undefined;
    if (!schedule.at) return "At a date and time (not chosen yet)";
    const inZone = zone
      ? new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone: zone }).format(new Date(schedule.at))
      : formatDateTime(schedule.at);
    return zone ? `${inZone} (${zone})` : inZone;
  }
  if (schedule.kind === "local" && typeof schedule.localDateTime === "string") {
    if (!schedule.localDateTime) return "At a local time (not chosen yet)";
    // The wall time itself, formatted without shifting it into the browser's zone.
    const wall = new Date(`${schedule.localDateTime.length === 16 ? `${schedule.localDateTime}:00` : schedule.localDateTime}Z`);
    return `${Number.isNaN(wall.getTime()) ? schedule.localDateTime : localFormat.format(wall)} in each recipient's time zone`;
  }
  return "Unknown schedule";
}
