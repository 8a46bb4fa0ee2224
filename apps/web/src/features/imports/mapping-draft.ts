import type { ImportMapping } from "./import-types.ts";

/** What one column of the file becomes in a users import. */
export type ColumnRole = "skip" | "externalId" | "email" | "phone" | "timezone" | "locale" | "attribute";

export type AttributeType = "string" | "number" | "boolean" | "date";

export interface ColumnDraft {
  role: ColumnRole;
  /** For attributes: the name it is stored under, and how its text is read. */
  name: string;
  type: AttributeType;
}

export type ChannelChoice = "email" | "sms" | "push" | "all";

/** The mapping form's state, for every kind at once so switching kinds loses nothing. */
export interface MappingDraft {
  kind: ImportMapping["kind"];
  columns: ColumnDraft[];
  /** Suppressions: the address column; opt-outs: the user id column. */
  keyColumn: number;
  /** A fixed channel, or a column index as a string ("col:3"). */
  channel: string;
  /** Opt-outs: a fixed category key, or "col:3". */
  category: string;
  /** Devices: the token column, and a fixed platform or "col:3". */
  token: number;
  platform: string;
  /** Activities: the name and time columns; key and properties are optional (-1: none). */
  name: number;
  occurredAt: number;
  activityKey: number;
  properties: number;
}

export const FIELD_ROLES: Array<{ role: ColumnRole; label: string }> = [
  { role: "skip", label: "Skip" },
  { role: "externalId", label: "External id" },
  { role: "email", label: "Email" },
  { role: "phone", label: "Phone" },
  { role: "timezone", label: "Timezone" },
  { role: "locale", label: "Locale" },
  { role: "attribute", label: "Attribute" },
];

const GUESSES: Array<[RegExp, ColumnRole]> = [
  [/^(external[ _-]?id|user[ _-]?id|id|customer[ _-]?id|uid)$/i, "externalId"],
  [/^e-?mail([ _-]?address)?$/i, "email"],
  [/^(phone|mobile|cell|msisdn|phone[ _-]?number)$/i, "phone"],
  [/^(time[ _-]?zone|tz)$/i, "timezone"],
  [/^(locale|language|lang)$/i, "locale"],
];

/** An attribute name the API accepts, made from a column's header ("Signed up" → "signed_up"). */
export function attributeName(header: string): string {
  const name = header.trim().toLowerCase().replace(/[^a-z0-9_.]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 64);
  return /^[a-z_]/.test(name) ? name : `c_${name}`.slice(0, 64);
}

/** A first guess from the header: known field names become fields, everything else an attribute. */
export function guessDraft(header: readonly string[]): MappingDraft {
  const taken = new Set<ColumnRole>();
  const columns = header.map((cell): ColumnDraft => {
    const guess = GUESSES.find(([pattern, role]) => pattern.test(cell.trim()) && !taken.has(role))?.[1];
    if (guess) {
      taken.add(guess);
      return { role: guess, name: "", type: "string" };
    }
    return { role: "attribute", name: attributeName(cell), type: "string" };
  });
  const column = (pattern: RegExp) => header.findIndex((cell) => pattern.test(cell.trim()));
  const channelColumn = column(/^channel$/i);
  const categoryColumn = column(/^category$/i);
  const addressColumn = column(/^(address|e-?mail|phone|recipient)$/i);
  const userColumn = column(/^(external[ _-]?id|user[ _-]?id|user|id)$/i);
  const tokenColumn = column(/^((push|device)[ _-]?)?token$|^registration[ _-]?id$/i);
  const platformColumn = column(/^(platform|os)$/i);
  const nameColumn = column(/^((activity|event)[ _-]?)?name$|^(activity|event)$/i);
  const occurredAtColumn = column(/^(occurred[ _-]?at|timestamp|time|date|at)$/i);
  // The file's own kind, when its header gives it away; everything else starts as users.
  const kind = tokenColumn >= 0 ? "devices" : occurredAtColumn >= 0 && nameColumn >= 0 ? "activities" : "users";
  return {
    kind,
    columns,
    keyColumn: Math.max(0, addressColumn >= 0 && kind === "users" ? addressColumn : userColumn),
    channel: channelColumn >= 0 ? `col:${channelColumn}` : "email",
    category: categoryColumn >= 0 ? `col:${categoryColumn}` : "",
    token: Math.max(0, tokenColumn),
    platform: platformColumn >= 0 ? `col:${platformColumn}` : "ios",
    name: Math.max(0, nameColumn),
    occurredAt: Math.max(0, occurredAtColumn),
    activityKey: column(/^((activity|event)[ _-]?(key|id)|key)$/i),
    properties: column(/^(properties|props|data)$/i),
  };
}

function fixedOrColumn<T extends string>(choice: string): { fixed: T } | { column: number } {
  return choice.startsWith("col:") ? { column: Number(choice.slice(4)) } : { fixed: choice as T };
}

/**
 * The mapping the server takes, or why the draft is not one yet. The server checks it again
 * (and says which field is wrong); this only spares a round trip for the obvious.
 */
export function toMapping(draft: MappingDraft): { mapping: ImportMapping } | { problem: string } {
  switch (draft.kind) {
    case "users": {
      const fields: Record<string, number> = {};
      const attributes: Array<{ column: number; name: string; type: AttributeType }> = [];
      for (const [column, c] of draft.columns.entries()) {
        if (c.role === "skip") continue;
        if (c.role === "attribute") attributes.push({ column, name: c.name.trim(), type: c.type });
        else if (fields[c.role] !== undefined) return { problem: `Two columns are mapped to ${FIELD_ROLES.find((f) => f.role === c.role)?.label}.` };
        else fields[c.role] = column;
      }
      if (fields.externalId === undefined) return { problem: "Choose the column that holds each user's external id." };
      if (attributes.some((a) => a.name === "")) return { problem: "Every attribute column needs a name." };
      return { mapping: { kind: "users", fields: { ...fields, externalId: fields.externalId }, attributes } };
    }
    case "suppressions":
      if (draft.channel === "push" || draft.channel === "all") return { problem: "Suppressions are per address: choose email or SMS." };
      return { mapping: { kind: "suppressions", address: draft.keyColumn, channel: fixedOrColumn<"email" | "sms">(draft.channel) } };
    case "opt_outs":
      if (draft.category.trim() === "") return { problem: "Choose the category people opted out of, or the column that names it." };
      return {
        mapping: {
          kind: "opt_outs",
          userId: draft.keyColumn,
          channel: fixedOrColumn<ChannelChoice>(draft.channel),
          category: fixedOrColumn<string>(draft.category.trim()),
        },
      };
    case "devices":
      return { mapping: { kind: "devices", userId: draft.keyColumn, token: draft.token, platform: fixedOrColumn<"ios" | "android" | "web">(draft.platform) } };
    case "activities":
      return {
        mapping: {
          kind: "activities",
          userId: draft.keyColumn,
          name: draft.name,
          occurredAt: draft.occurredAt,
          ...(draft.activityKey >= 0 ? { key: draft.activityKey } : {}),
          ...(draft.properties >= 0 ? { properties: draft.properties } : {}),
        },
      };
  }
}
