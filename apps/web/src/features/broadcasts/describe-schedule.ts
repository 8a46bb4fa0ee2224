import { formatDateTime } from "../../lib/format-date.ts";

/** A schedule as the server stores it (or the composer reads it). */
export type ScheduleLike = { kind: string; at?: unknown; timezone?: unknown; localDateTime?: unknown } | null;

const localFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** "2026-12-24T09:00" as "24 Dec 2026, 09:00": a wall time, formatted without shifting it into the browser's zone. */
export function formatLocalDateTime(localDateTime: string): string {
  const wall = new Date(`${localDateTime.length === 16 ? `${localDateTime}:00` : localDateTime}Z`);
  return Number.isNaN(wall.getTime()) ? localDateTime : localFormat.format(wall);
}

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
    return `${formatLocalDateTime(schedule.localDateTime)} in each recipient's time zone`;
  }
  return "Unknown schedule";
}
