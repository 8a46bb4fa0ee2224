import { fromWallTime, isTimeZone } from "@herald/core/browser";
import type { Channel } from "../../lib/channels.ts";
import type { Broadcast, BroadcastInput, BroadcastSchedule } from "./broadcast-types.ts";

/** The composer's steps, in order. */
export const STEPS = [
  { key: "audience", label: "Audience" },
  { key: "content", label: "Content and variants" },
  { key: "channels", label: "Channels and category" },
  { key: "schedule", label: "Schedule" },
  { key: "review", label: "Review" },
] as const;
export type Step = (typeof STEPS)[number]["key"];

export type VariantRow = { id: string; version: string; percent: string };
export type DataRow = { id: string; key: string; value: string };
export type ScheduleKind = BroadcastSchedule["kind"];

/** Every input of the composer as typed; `readBroadcast` turns it into what the server takes. */
export type ComposerDraft = {
  name: string;
  segmentId: string;
  holdoutPercent: string;
  templateKey: string;
  variants: VariantRow[];
  data: DataRow[];
  channels: Channel[];
  category: string;
  lane: "bulk" | "critical";
  isThrottled: boolean;
  throttlePerMinute: string;
  scheduleKind: ScheduleKind;
  /** A `datetime-local` value, read in `timezone`. */
  at: string;
  timezone: string;
  /** A `datetime-local` value, read in each recipient's own zone. */
  localDateTime: string;
};

/** When to send: not part of the saved draft (the server keeps a schedule only once it is scheduled). */
export type ScheduleChoice = Pick<ComposerDraft, "scheduleKind" | "at" | "timezone" | "localDateTime">;

export function scheduleChoiceOf(d: ComposerDraft): ScheduleChoice {
  return { scheduleKind: d.scheduleKind, at: d.at, timezone: d.timezone, localDateTime: d.localDateTime };
}

/** Field → message, for the fields of one step. */
export type DraftErrors = Partial<Record<DraftField, string>>;
export type DraftField =
  | "name"
  | "segmentId"
  | "holdoutPercent"
  | "templateKey"
  | "variants"
  | "data"
  | "channels"
  | "category"
  | "throttlePerMinute"
  | "at"
  | "timezone"
  | "localDateTime";

let counter = 0;
export const rowId = () => `r${++counter}`;

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

export function blankDraft(): ComposerDraft {
  return {
    name: "",
    segmentId: "",
    holdoutPercent: "0",
    templateKey: "",
    variants: [],
    data: [],
    channels: [],
    category: "",
    lane: "bulk",
    isThrottled: false,
    throttlePerMinute: "",
    scheduleKind: "now",
    at: "",
    timezone: browserTimeZone(),
    localDateTime: "",
  };
}

/** A saved draft back in the composer; its schedule is chosen afresh each time it is scheduled. */
export function draftFromBroadcast(b: Broadcast): ComposerDraft {
  return {
    ...blankDraft(),
    name: b.name,
    segmentId: b.segmentId,
    holdoutPercent: String(b.holdoutPercent),
    templateKey: b.templateKey,
    variants: b.variants.map((v) => ({ id: rowId(), version: String(v.version), percent: String(v.percent) })),
    data: Object.entries(b.data).map(([key, value]) => ({ id: rowId(), key, value: typeof value === "string" ? value : JSON.stringify(value) })),
    channels: [...b.channels],
    category: b.category,
    lane: b.lane,
    isThrottled: b.throttlePerMinute !== null,
    throttlePerMinute: b.throttlePerMinute === null ? "" : String(b.throttlePerMinute),
  };
}

/** The problems of one step's fields; an empty object when the step is complete. */
export function stepErrors(step: Step, d: ComposerDraft): DraftErrors {
  const errors: DraftErrors = {};
  switch (step) {
    case "audience": {
      if (!d.name.trim()) errors.name = "Name the broadcast, e.g. “Winter sale”.";
      if (!d.segmentId) errors.segmentId = "Choose who gets it.";
      const holdout = Number(d.holdoutPercent);
      if (d.holdoutPercent.trim() === "" || !Number.isFinite(holdout) || holdout < 0 || holdout > 50 || Math.round(holdout * 10) !== holdout * 10) {
        errors.holdoutPercent = "Enter a percentage from 0 to 50, with at most one decimal.";
      }
      break;
    }
    case "content": {
      if (!d.templateKey) errors.templateKey = "Choose a template.";
      else if (d.variants.length === 0) errors.variants = "This template has no published version yet: publish one first.";
      else {
        const percents = d.variants.map((v) => Number(v.percent));
        const versions = d.variants.map((v) => v.version);
        if (versions.some((v) => !v)) errors.variants = "Choose a version for every variant.";
        else if (new Set(versions).size !== versions.length) errors.variants = "Each variant must be a different version.";
        else if (percents.some((p) => !Number.isInteger(p) || p < 1 || p > 100)) errors.variants = "Give every variant a whole percentage from 1 to 100.";
        else if (percents.reduce((a, b) => a + b, 0) !== 100) errors.variants = `The shares must add up to 100 % (they add up to ${percents.reduce((a, b) => a + b, 0)} %).`;
      }
      const keys = d.data.map((row) => row.key.trim());
      if (keys.some((key) => !key)) errors.data = "Name every value, or remove the empty row.";
      else if (new Set(keys).size !== keys.length) errors.data = "Each name may appear once.";
      break;
    }
    case "channels": {
      if (d.channels.length === 0) errors.channels = "Choose at least one channel.";
      if (!d.category) errors.category = "Choose a category.";
      if (d.isThrottled) {
        const n = Number(d.throttlePerMinute);
        if (!Number.isInteger(n) || n < 1 || n > 1_000_000) errors.throttlePerMinute = "Enter a whole number of sends per minute, from 1.";
      }
      break;
    }
    case "schedule": {
      if (d.scheduleKind === "at") {
        if (!isTimeZone(d.timezone.trim())) errors.timezone = "Enter a time zone such as Europe/Paris or America/New_York.";
        const at = instantOf(d);
        if (!d.at) errors.at = "Pick the date and time.";
        else if (at && at.getTime() < Date.now()) errors.at = "This is in the past.";
      }
      if (d.scheduleKind === "local" && !d.localDateTime) errors.localDateTime = "Pick the date and time.";
      break;
    }
    case "review":
      break;
  }
  return errors;
}

/** The first step with something missing, or null when the broadcast can be saved and scheduled. */
export function firstIncompleteStep(d: ComposerDraft, upTo: Step = "schedule"): Step | null {
  for (const { key } of STEPS) {
    if (Object.keys(stepErrors(key, d)).length > 0) return key;
    if (key === upTo) break;
  }
  return null;
}

/** What `broadcasts.create` and `update` take; call it once the first three steps are complete. */
export function readBroadcast(d: ComposerDraft): BroadcastInput {
  return {
    name: d.name.trim(),
    segmentId: d.segmentId,
    templateKey: d.templateKey,
    variants: d.variants.map((v) => ({ version: Number(v.version), percent: Number(v.percent) })),
    channels: d.channels,
    category: d.category.trim(),
    lane: d.lane,
    holdoutPercent: Number(d.holdoutPercent),
    throttlePerMinute: d.isThrottled ? Number(d.throttlePerMinute) : null,
    data: Object.fromEntries(d.data.map((row) => [row.key.trim(), row.value])),
  };
}

export function readSchedule(d: ComposerDraft): BroadcastSchedule {
  if (d.scheduleKind === "now") return { kind: "now" };
  if (d.scheduleKind === "local") return { kind: "local", localDateTime: d.localDateTime };
  return { kind: "at", at: instantOf(d)?.toISOString() ?? "", timezone: d.timezone.trim() };
}

/** The instant a `datetime-local` value names in the draft's time zone. */
function instantOf(d: ComposerDraft): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(d.at);
  if (!match || !isTimeZone(d.timezone.trim())) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number];
  return fromWallTime({ year, month, day, hour, minute, second: 0 }, d.timezone.trim());
}
