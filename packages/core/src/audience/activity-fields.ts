import { z } from "zod";

/** An activity's name, as segments match it (`session_completed`, `checkout:done`). */
export const ActivityNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/, "must be a name like session_completed");

/** The caller's own id for an activity: one activity per user and key, however often it is sent. */
export const ActivityKeySchema = z.string().min(1, "must not be empty").max(256, "must be at most 256 characters");

// Zod's ISO check allows offsets up to ±23:59 and year 0000; Postgres refuses both (with a
// 500, were they let through). Days are checked per month by zod already.
const OFFSET = /(?:Z|[+-](\d{2}):\d{2})$/i;

function isStorableInstant(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const offsetHours = Number(OFFSET.exec(value)?.[1] ?? 0);
  return year >= 1 && offsetHours <= 15 && !Number.isNaN(Date.parse(value));
}

/**
 * When something happened: an ISO 8601 date-time with an offset Postgres can store. A time
 * without an offset is refused: whose clock it was read from is anybody's guess.
 */
export const OccurredAtSchema = z.iso
  .datetime({ offset: true, error: "must be an ISO 8601 date-time such as 2026-11-30T12:00:00Z" })
  .refine(isStorableInstant, "must be a date-time from year 0001 to 9999 with an offset of at most ±15:59");
