import { z } from "zod";
import { ChannelSchema } from "../channels/channels.ts";

/** The longest date range a chart may ask for: two years of daily rows stays a small read. */
export const MAX_ANALYTICS_DAYS = 731;

const DaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date as YYYY-MM-DD", abort: true })
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "is not a calendar date");

/** Which notifications a chart counts: a day range (inclusive, in the rollup's time zone) and optional dimensions. */
export const AnalyticsFilterSchema = z
  .object({
    from: DaySchema,
    to: DaySchema,
    channel: ChannelSchema.nullish(),
    type: z.string().min(1).max(200).nullish(),
    broadcastId: z.string().regex(/^\d{1,18}$/, "must be a broadcast id").nullish(),
    templateKey: z.string().min(1).max(200).nullish(),
    templateVersion: z.number().int().min(1).max(1_000_000).nullish(),
  })
  // Each rule holds when a date is unreadable: that date's own message says enough.
  .refine((f) => !(f.from > f.to), { path: ["to"], message: "must not be before from" })
  .refine((f) => !(daysBetween(f.from, f.to) >= MAX_ANALYTICS_DAYS), { path: ["to"], message: `a range spans at most ${MAX_ANALYTICS_DAYS} days` })
  .refine((f) => f.templateVersion == null || f.templateKey != null, { path: ["templateVersion"], message: "needs templateKey" });

export type AnalyticsFilterInput = z.infer<typeof AnalyticsFilterSchema>;

export const GranularitySchema = z.enum(["day", "week"], { error: () => "must be day or week" });
export type Granularity = z.infer<typeof GranularitySchema>;

const DAY_MS = 86_400_000;
const toMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const toDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Whole days from one YYYY-MM-DD to another (0 for the same day). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toMs(to) - toMs(from)) / DAY_MS);
}

/** The day `n` days after (or before, when negative) a YYYY-MM-DD day. */
export function addDays(day: string, n: number): string {
  return toDay(toMs(day) + n * DAY_MS);
}

/** The Monday starting the ISO week of a day (Postgres' date_trunc('week')). */
export function weekStart(day: string): string {
  const weekday = (new Date(toMs(day)).getUTCDay() + 6) % 7;
  return toDay(toMs(day) - weekday * DAY_MS);
}

/**
 * Every bucket of a range, in order, so that a chart's axis has no holes where nothing was sent:
 * each day, or each week's Monday (the first may start before `from`).
 */
export function bucketsBetween(from: string, to: string, granularity: Granularity): string[] {
  const out: string[] = [];
  const step = granularity === "day" ? 1 : 7;
  for (let d = granularity === "day" ? from : weekStart(from); d <= to; d = addDays(d, step)) out.push(d);
  return out;
}

/** A day in a time zone, as YYYY-MM-DD. */
export function dayIn(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
}
