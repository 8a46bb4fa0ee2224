// Sample inputs built from a procedure's own zod schema (zod 4's `_zod.def`), so a test can put
// a bad value in each text field of every procedure without a hand-kept list going stale.

interface Def {
  type: string;
  [key: string]: any;
}

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

interface CheckDef {
  check: string;
  format?: string;
  minimum?: number;
  value?: number | bigint;
  inclusive?: boolean;
  length?: number;
}
const checksOf = (def: Def): CheckDef[] => ((def.checks ?? []) as Array<{ _zod: { def: CheckDef } }>).map((c) => c._zod.def);

function sampleString(def: Def): string {
  const checks = checksOf(def);
  const format = def.format ?? checks.find((c) => c.check === "string_format")?.format;
  const formats: Record<string, string> = {
    email: "ada@example.com",
    url: "https://example.com/",
    uuid: "6f1c3a52-8d4e-4b7a-9f2e-1a2b3c4d5e6f",
    guid: "6f1c3a52-8d4e-4b7a-9f2e-1a2b3c4d5e6f",
    datetime: "2026-01-01T00:00:00Z",
    date: "2026-01-01",
    time: "12:00",
  };
  let text = (format && formats[format]) ?? "a";
  const min = Math.max(0, ...checks.filter((c) => c.check === "min_length" || c.check === "length_equals").map((c) => c.minimum ?? c.length ?? 0));
  if (text.length < min) text = text.padEnd(min, "a");
  return text;
}

function sampleNumber(def: Def): number {
  let low = -Infinity;
  let high = Infinity;
  for (const c of checksOf(def)) {
    if (c.check === "greater_than") low = Number(c.value) + (c.inclusive ? 0 : 1);
    if (c.check === "less_than") high = Number(c.value) - (c.inclusive ? 0 : 1);
  }
  if (1 >= low && 1 <= high) return 1;
  return Number.isFinite(low) ? low : high;
}

/** Where a text goes in a sample: a string value, or the key of a record. */
export interface TextField {
  path: Array<string | number>;
  isKey: boolean;
}

/**
 * A value the schema is likely to accept (every field present, the first option of each
 * choice) and the text fields in it: its strings and the keys of its records.
 */
export function sampleOf(schema: unknown): { value: unknown; texts: TextField[] } {
  const texts: TextField[] = [];
  const value = sample(schema, [], texts, 0);
  return { value, texts };
}

function sample(schema: unknown, path: Array<string | number>, texts: TextField[], depth: number): unknown {
  const def = defOf(schema);
  if (depth > 12) return undefined;
  const inner = (next: unknown, at = path) => sample(next, at, texts, depth + 1);
  switch (def.type) {
    case "string":
    case "any":
    case "unknown":
      texts.push({ path, isKey: false });
      return def.type === "string" ? sampleString(def) : "a";
    case "number":
    case "int":
      return sampleNumber(def);
    case "bigint":
      return 1;
    case "boolean":
      return true;
    case "date":
      return "2026-01-01T00:00:00Z";
    case "literal":
      return (def.values as unknown[])[0];
    case "enum":
      return Object.values(def.entries as Record<string, unknown>)[0];
    case "null":
      return null;
    case "array": {
      const min = Math.max(1, ...checksOf(def).filter((c) => c.check === "min_length").map((c) => c.minimum ?? 0));
      return Array.from({ length: min }, (_, i) => inner(def.element, [...path, i]));
    }
    case "tuple":
      return (def.items as unknown[]).map((item, i) => inner(item, [...path, i]));
    case "object":
      return Object.fromEntries(Object.entries(def.shape as Record<string, unknown>).map(([key, field]) => [key, inner(field, [...path, key])]));
    case "record": {
      const key = String(sample(def.keyType, path, [], depth + 1));
      texts.push({ path: [...path, key], isKey: true });
      return { [key]: inner(def.valueType, [...path, key]) };
    }
    case "union":
      return inner((def.options as unknown[])[0]);
    case "intersection":
      return { ...(inner(def.left) as object), ...(inner(def.right) as object) };
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      return inner(def.innerType);
    case "pipe":
      return inner(def.in);
    case "lazy":
      return inner(def.getter());
    default:
      return undefined;
  }
}

/** `value` with `inject` applied to the text at `at`. */
export function withTextAt(value: unknown, at: TextField, inject: (s: string) => string): unknown {
  if (at.path.length === 0) return inject(value as string);
  const copy = structuredClone(value);
  const parent = at.path.slice(0, -1).reduce<any>((node, key) => node[key], copy);
  const last = at.path.at(-1)!;
  if (at.isKey) {
    const item = parent[last];
    delete parent[last];
    parent[inject(String(last))] = item;
  } else {
    parent[last] = inject(parent[last] as string);
  }
  return copy;
}
