import { ActivityKeySchema, ActivityNameSchema, OccurredAtSchema } from "../audience/activity-fields.ts";
import { ExternalIdSchema } from "../config/audience.ts";
import { trimCell } from "./import-cells.ts";
import type { ActivitiesMapping } from "./import-mapping.ts";
import { parseWith, problem, type Checked, type Parsed } from "./row-problem.ts";

/** Something a user did, as `POST /users/:userId/activities` records it. */
export interface ImportedActivity {
  kind: "activities";
  userId: string;
  name: string;
  /** The UTC instant. */
  occurredAt: string;
  /** The file's own id for the activity; null when the row has none (the import derives one). */
  key: string | null;
  properties: Record<string, unknown>;
}

/** How far ahead of the importing server's clock an activity may lie: clocks drift, the future does not happen. */
export const ACTIVITY_CLOCK_SKEW_MS = 5 * 60_000;

/** Deeper JSON is no set of properties but a generated file gone wrong, and Postgres parses it recursively. */
const MAX_PROPERTIES_DEPTH = 32;

/** Why Postgres could not store this JSON value (a NUL or a lone surrogate in a string), or null. */
function unstorable(value: unknown, depth: number): string | null {
  if (typeof value === "string") {
    return value.includes("\0") || !value.isWellFormed() ? "holds a character Postgres cannot store (\\u0000 or a lone surrogate)" : null;
  }
  if (value === null || typeof value !== "object") return null;
  if (depth > MAX_PROPERTIES_DEPTH) return `is nested deeper than ${MAX_PROPERTIES_DEPTH} levels`;
  const entries = Array.isArray(value) ? value.map((v) => ["", v] as const) : Object.entries(value);
  for (const [key, v] of entries) {
    const reason = unstorable(key, depth) ?? unstorable(v, depth + 1);
    if (reason) return reason;
  }
  return null;
}

// Postgres's numeric overflows at 1e131072 (or 1e-16384), and the whole chunk's INSERT with it.
// A thousand digits either side of the point and a three-digit exponent stay far inside that,
// and far beyond any real property.
const STORABLE_NUMBER = /^-?\d{1,1000}(?:\.\d{1,1000})?(?:[eE][+-]?\d{1,3})?$/;

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

/**
 * A JSON object cell. Postgres reads the same text as jsonb when the row is imported, so
 * whatever it would refuse is refused here, row by row, instead of failing the whole chunk.
 */
function parseProperties(text: string): Parsed<Record<string, unknown>> {
  let value: unknown;
  let badNumber: string | null = null;
  // The number as written (the reviver's source), not as a double: 1e400 is Infinity to JavaScript and fine to Postgres.
  const checkNumbers: Reviver = (_key, v, context) => {
    if (typeof v === "number" && badNumber === null && context?.source !== undefined && !STORABLE_NUMBER.test(context.source)) badNumber = context.source;
    return v;
  };
  try {
    value = JSON.parse(text, checkNumbers as Parameters<typeof JSON.parse>[1]);
  } catch {
    return { reason: problem("properties", text, 'is not JSON: write an object such as {"plan":"pro"}') };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { reason: problem("properties", text, 'must be a JSON object such as {"plan":"pro"}') };
  }
  if (badNumber !== null) {
    const shown = (badNumber as string).length <= 20 ? badNumber : `${(badNumber as string).slice(0, 20)}…`;
    return { reason: problem("properties", text, `holds a number too large to store (${shown}): at most 1,000 digits and an exponent within ±999`) };
  }
  const reason = unstorable(value, 1);
  return reason ? { reason: problem("properties", text, reason) } : { value: value as Record<string, unknown> };
}

/**
 * The REST API's checks with its words, and a time that must say its offset and may not lie
 * ahead of `now` by more than the clock skew. Like the API, the import creates users it has
 * not seen.
 */
export function activityChecker(mapping: ActivitiesMapping, now: Date): (cells: readonly string[]) => Checked<ImportedActivity> {
  const externalId = parseWith(ExternalIdSchema, "user id");
  const name = parseWith(ActivityNameSchema, "activity name");
  const occurredAt = parseWith(OccurredAtSchema, "occurred at");
  const key = parseWith(ActivityKeySchema, "activity key");
  const latest = now.getTime() + ACTIVITY_CLOCK_SKEW_MS;
  return (cells) => {
    const id = trimCell(cells[mapping.userId]);
    if (id === "") return { ok: false, reason: "user id is empty" };
    const parsedId = externalId(id);
    if ("reason" in parsedId) return { ok: false, reason: parsedId.reason };
    const nameText = trimCell(cells[mapping.name]);
    if (nameText === "") return { ok: false, reason: "activity name is empty" };
    const parsedName = name(nameText);
    if ("reason" in parsedName) return { ok: false, reason: parsedName.reason };
    const timeText = trimCell(cells[mapping.occurredAt]);
    if (timeText === "") return { ok: false, reason: "occurred at is empty" };
    const parsedTime = occurredAt(timeText);
    if ("reason" in parsedTime) return { ok: false, reason: parsedTime.reason };
    const instant = Date.parse(timeText);
    if (instant > latest) return { ok: false, reason: problem("occurred at", timeText, `is more than ${ACTIVITY_CLOCK_SKEW_MS / 60_000} minutes in the future`) };
    const keyText = mapping.key === undefined ? "" : trimCell(cells[mapping.key]);
    const parsedKey = keyText === "" ? { value: null } : key(keyText);
    if ("reason" in parsedKey) return { ok: false, reason: parsedKey.reason };
    const propertiesText = mapping.properties === undefined ? "" : trimCell(cells[mapping.properties]);
    const properties = propertiesText === "" ? { value: {} } : parseProperties(propertiesText);
    if ("reason" in properties) return { ok: false, reason: properties.reason };
    return {
      ok: true,
      record: { kind: "activities", userId: id, name: nameText, occurredAt: new Date(instant).toISOString(), key: parsedKey.value, properties: properties.value },
    };
  };
}
