import { AttributesSchema, E164Schema, ExternalIdSchema, LocaleSchema, type Attributes, type AttributeValue } from "../config/audience.ts";
import { CategoryKeySchema } from "../config/categories.ts";
import { CHANNELS, ChannelSchema, type Channel } from "../channels/channels.ts";
import { TimeZoneSchema } from "../time/time-zone.ts";
import { EmailSchema } from "../validation/text.ts";
import { compactPhone, parseBooleanCell, parseDateCell, parseNumberCell, trimCell } from "./import-cells.ts";
import { activityChecker, type ImportedActivity } from "./check-activity-row.ts";
import { deviceChecker, type ImportedDevice } from "./check-device-row.ts";
import type { AttributeColumn, ImportMapping, OptOutsMapping, SuppressionsMapping, UsersMapping } from "./import-mapping.ts";
import { firstMessage, parseWith, problem, type Parsed } from "./row-problem.ts";

export { ACTIVITY_CLOCK_SKEW_MS, type ImportedActivity } from "./check-activity-row.ts";
export type { ImportedDevice } from "./check-device-row.ts";

/** A user's row as it will be merged: null fields were empty in the file and stay as stored. */
export interface ImportedUser {
  kind: "users";
  externalId: string;
  email: string | null;
  phone: string | null;
  timezone: string | null;
  locale: string | null;
  attributes: Attributes;
}

/** An address to suppress on its channel (reason `import`). */
export interface ImportedSuppression {
  kind: "suppressions";
  channel: "email" | "sms";
  address: string;
}

/** A user's opt-out of a category on one or more channels. */
export interface ImportedOptOut {
  kind: "opt_outs";
  userId: string;
  channels: Channel[];
  category: string;
}

export type ImportedRecord = ImportedUser | ImportedSuppression | ImportedOptOut | ImportedDevice | ImportedActivity;

/** One CSV row read through a mapping: what it becomes, or why it cannot. */
export type RowOutcome = { ok: true; record: ImportedRecord } | { ok: false; reason: string };

/**
 * Time zone and locale checks build an Intl object per call; a file repeats a handful of values
 * a million times, so answers are kept (bounded, against a file of all-different values).
 */
function memoized<T>(check: (text: string) => T): (text: string) => T {
  const answers = new Map<string, T>();
  return (text) => {
    const known = answers.get(text);
    if (known !== undefined || answers.has(text)) return known as T;
    if (answers.size >= 10_000) answers.clear();
    const answer = check(text);
    answers.set(text, answer);
    return answer;
  };
}

function readAttribute(attribute: AttributeColumn, text: string): Parsed<AttributeValue> {
  const label = `attribute "${attribute.name}"`;
  switch (attribute.type) {
    case "string":
      return { value: text };
    case "number": {
      const value = parseNumberCell(text);
      return value === null ? { reason: problem(label, text, "is not a number such as 42 or -3.5") } : { value };
    }
    case "boolean": {
      const value = parseBooleanCell(text);
      return value === null ? { reason: problem(label, text, "is not true or false (also yes/no, 1/0)") } : { value };
    }
    case "date": {
      const value = parseDateCell(text);
      return value === null ? { reason: problem(label, text, "is not a date such as 2026-11-30 or 2026-11-30T09:00:00Z") } : { value };
    }
  }
}

function userChecker(mapping: UsersMapping): (cells: readonly string[]) => RowOutcome {
  const timezone = memoized(parseWith(TimeZoneSchema, "timezone"));
  const locale = memoized(parseWith(LocaleSchema, "locale"));
  const email = parseWith(EmailSchema, "email");
  const phone = parseWith(E164Schema, "phone");
  const externalId = parseWith(ExternalIdSchema, "external id");
  const optional: Array<[Exclude<keyof UsersMapping["fields"], "externalId">, (text: string) => Parsed<string>]> = [
    ["email", email],
    ["phone", (text) => phone(compactPhone(text))],
    ["timezone", timezone],
    ["locale", locale],
  ];
  return (cells) => {
    const id = trimCell(cells[mapping.fields.externalId]);
    if (id === "") return { ok: false, reason: "external id is empty" };
    const parsedId = externalId(id);
    if ("reason" in parsedId) return { ok: false, reason: parsedId.reason };
    const record: ImportedUser = { kind: "users", externalId: id, email: null, phone: null, timezone: null, locale: null, attributes: {} };
    for (const [field, parse] of optional) {
      const column = mapping.fields[field];
      const text = column === undefined ? "" : trimCell(cells[column]);
      if (text === "") continue;
      const parsed = parse(text);
      if ("reason" in parsed) return { ok: false, reason: parsed.reason };
      record[field] = parsed.value;
    }
    for (const attribute of mapping.attributes) {
      const text = trimCell(cells[attribute.column]);
      if (text === "") continue;
      const parsed = readAttribute(attribute, text);
      if ("reason" in parsed) return { ok: false, reason: parsed.reason };
      record.attributes[attribute.name] = parsed.value;
    }
    // Length and control characters of text attributes: the REST API's own rule and wording.
    const attributes = AttributesSchema.safeParse(record.attributes);
    if (!attributes.success) return { ok: false, reason: firstMessage(attributes.error) };
    return { ok: true, record };
  };
}

function suppressionChecker(mapping: SuppressionsMapping): (cells: readonly string[]) => RowOutcome {
  const email = parseWith(EmailSchema, "email address");
  const phone = parseWith(E164Schema, "phone number");
  return (cells) => {
    const channel = "fixed" in mapping.channel ? mapping.channel.fixed : trimCell(cells[mapping.channel.column]).toLowerCase();
    if (channel !== "email" && channel !== "sms") return { ok: false, reason: problem("channel", channel, "must be email or sms") };
    const text = trimCell(cells[mapping.address]);
    if (text === "") return { ok: false, reason: "address is empty" };
    const parsed = channel === "email" ? email(text) : phone(compactPhone(text));
    if ("reason" in parsed) return { ok: false, reason: parsed.reason };
    return { ok: true, record: { kind: "suppressions", channel, address: parsed.value } };
  };
}

function optOutChecker(mapping: OptOutsMapping): (cells: readonly string[]) => RowOutcome {
  const externalId = parseWith(ExternalIdSchema, "user id");
  const category = parseWith(CategoryKeySchema, "category");
  const channel = parseWith(ChannelSchema, "channel");
  return (cells) => {
    const id = trimCell(cells[mapping.userId]);
    if (id === "") return { ok: false, reason: "user id is empty" };
    const parsedId = externalId(id);
    if ("reason" in parsedId) return { ok: false, reason: parsedId.reason };
    let channels: Channel[];
    if ("fixed" in mapping.channel) channels = mapping.channel.fixed === "all" ? [...CHANNELS] : [mapping.channel.fixed];
    else {
      const text = trimCell(cells[mapping.channel.column]).toLowerCase();
      if (text === "all") channels = [...CHANNELS];
      else {
        const parsed = channel(text);
        if ("reason" in parsed) return { ok: false, reason: `${parsed.reason} (or all)` };
        channels = [parsed.value];
      }
    }
    const key = "fixed" in mapping.category ? mapping.category.fixed : trimCell(cells[mapping.category.column]).toLowerCase();
    const parsedKey = category(key);
    if ("reason" in parsedKey) return { ok: false, reason: parsedKey.reason };
    return { ok: true, record: { kind: "opt_outs", userId: id, channels, category: parsedKey.value } };
  };
}

function kindChecker(mapping: ImportMapping, now: Date): (cells: readonly string[]) => RowOutcome {
  switch (mapping.kind) {
    case "users":
      return userChecker(mapping);
    case "suppressions":
      return suppressionChecker(mapping);
    case "opt_outs":
      return optOutChecker(mapping);
    case "devices":
      return deviceChecker(mapping);
    case "activities":
      return activityChecker(mapping, now);
  }
}

/**
 * The check every row of an import goes through, preview and import alike. A row with values
 * past the header's last column is refused: a value holding the delimiter lost its quotes, and
 * every cell after it is in the wrong column. Pure: whether a category exists, and whether an
 * id repeats elsewhere in the file, are the database's to say. `now` is when the check runs
 * (an activity may not lie in the future).
 */
export function createRowChecker(mapping: ImportMapping, header: readonly string[], now: Date): (cells: readonly string[]) => RowOutcome {
  const check = kindChecker(mapping, now);
  const columns = header.length;
  return (cells) => {
    if (cells.length > columns && cells.slice(columns).some((cell) => trimCell(cell) !== "")) {
      return { ok: false, reason: `has ${cells.length} cells but the header names ${columns}: a value that contains the delimiter must be quoted` };
    }
    return check(cells);
  };
}
