import { CHANNELS, type Channel } from "../channels/channels.ts";
import { contentFields } from "./content-fields.ts";
import { diffLines, type DiffLine } from "./diff-lines.ts";
import type { TemplateBody } from "./template-content.ts";

/** How one field of a template version differs from the previous one. */
export interface FieldDiff {
  field: string;
  change: "added" | "removed" | "changed";
  lines: DiffLine[];
}

/** A bounded, JSON-able account of a diff for the audit log. */
export interface DiffSummary {
  fields: {
    field: string;
    change: FieldDiff["change"];
    added: number;
    removed: number;
    lines: { kind: "added" | "removed"; line: number; text: string }[];
  }[];
  /** Whether lines (or the text of long lines) were left out to stay within the cap. */
  truncated: boolean;
}

const VARIABLES_FIELD = "variables";
const SEPARATOR = " · ";
const FIELD_ORDER = ["title", "body", "imageUrl", "deepLink", "subject", "preheader", "html", "text"];
// One minified html is a single line of up to 512 KiB: the audit log keeps its start.
const MAX_SUMMARY_LINE_CHARACTERS = 300;

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, sortedKeys(v)]));
}

/**
 * A version flattened to readable fields — "variables" (pretty JSON, sorted by name) and
 * "pt-BR · push · data.url" for each Liquid source — so versions compare field by field.
 */
export function templateFields(body: TemplateBody): Record<string, string> {
  const variables = [...body.variables]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ name, type, required, example, description }) => ({ name, type, required, example: sortedKeys(example), description }));
  const fields: Record<string, string> = { [VARIABLES_FIELD]: JSON.stringify(variables, null, 2) };
  for (const locale of Object.keys(body.content).sort()) {
    const content = body.content[locale];
    if (content === undefined) continue;
    for (const { channel, field, source } of contentFields(content)) fields[[locale, channel, field].join(SEPARATOR)] = source;
  }
  return fields;
}

function rank(field: string): [string, number, number, string] {
  if (field === VARIABLES_FIELD) return ["", -1, -1, ""];
  const [locale = "", channel = "", name = ""] = field.split(SEPARATOR);
  const order = FIELD_ORDER.indexOf(name);
  return [locale, CHANNELS.indexOf(channel as Channel), order === -1 ? FIELD_ORDER.length : order, name];
}

function compareFields(a: string, b: string): number {
  const [ra, rb] = [rank(a), rank(b)];
  for (let i = 0; i < ra.length; i++) {
    const [x, y] = [ra[i] as string | number, rb[i] as string | number];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The fields that differ between two versions (a is null for the first), variables first, then by locale, channel and field. */
export function diffTemplates(a: TemplateBody | null, b: TemplateBody): FieldDiff[] {
  const before = a === null ? {} : templateFields(a);
  const after = templateFields(b);
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(compareFields);
  const diffs: FieldDiff[] = [];
  for (const field of names) {
    const old = before[field];
    const now = after[field];
    if (old === now) continue;
    const change = old === undefined ? "added" : now === undefined ? "removed" : "changed";
    diffs.push({ field, change, lines: diffLines(old ?? "", now ?? "") });
  }
  return diffs;
}

/** The changed fields and their added and removed lines, at most `maxLines` lines in all. */
export function summarizeDiff(diffs: readonly FieldDiff[], maxLines = 200): DiffSummary {
  let budget = maxLines;
  let truncated = false;
  const fields = diffs.map(({ field, change, lines }) => {
    const changed = lines.filter((line) => line.kind !== "same");
    const kept = changed.slice(0, Math.max(budget, 0));
    budget -= kept.length;
    if (kept.length < changed.length) truncated = true;
    return {
      field,
      change,
      added: changed.filter((line) => line.kind === "added").length,
      removed: changed.filter((line) => line.kind === "removed").length,
      lines: kept.map((line) => {
        const long = line.text.length > MAX_SUMMARY_LINE_CHARACTERS;
        if (long) truncated = true;
        return {
          kind: line.kind === "added" ? ("added" as const) : ("removed" as const),
          line: (line.kind === "added" ? line.rightLine : line.leftLine) ?? 0,
          text: long ? `${line.text.slice(0, MAX_SUMMARY_LINE_CHARACTERS)}…` : line.text,
        };
      }),
    };
  });
  return { fields, truncated };
}
