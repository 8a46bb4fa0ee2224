import { Liquid, LiquidError, Tag, type FS, type TagToken, type Template, type TopLevelToken } from "liquidjs";
import { utf8Bytes } from "./utf8-bytes.ts";

/** "html" escapes every output (email html); "text" writes values as they are. */
export type LiquidMode = "html" | "text";

/** Where and why a source does not parse; line and column are 1-based. */
export interface LiquidSyntaxError {
  ok: false;
  message: string;
  line: number;
  column: number;
}

export type LiquidRenderResult =
  | { ok: true; output: string }
  | { ok: false; kind: "syntax" | "render_error" | "too_large"; message: string; line?: number; column?: number };

export const MAX_LIQUID_OUTPUT_BYTES = 1024 * 1024;
const PARSE_LIMIT_CHARACTERS = 1024 * 1024;
const RENDER_LIMIT_MS = 200;
/**
 * The time limit is wall-clock time (liquidjs reads performance.now()), so a render of a fraction
 * of a millisecond fails it when a GC pause or a busy machine stalls the process mid-render: a
 * dispatch bench on a loaded machine dead-lettered one of 3,000 notifications that way. A render
 * that hits it gets one more try; a template that is really too slow fails both.
 */
const RENDER_TRIES = 2;
const RENDER_LIMIT_MESSAGE = "template render limit exceeded";
// liquidjs counts ranges, joins, appends and date formatting against this, so
// (1..100000000) fails at once instead of allocating.
const MEMORY_LIMIT = 10_000_000;
const CACHE_ENTRIES = 2_000;
const CACHE_CHARACTERS = 16 * 1024 * 1024;

// Templates live in the database, never on disk: any file lookup is a bug or an attack.
const NO_FILES: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async (file) => {
    throw new Error(`templates cannot read files (${file})`);
  },
  readFileSync: (file) => {
    throw new Error(`templates cannot read files (${file})`);
  },
  resolve: (_dir, file) => file,
};

/** Refuses a file-reading tag when it is parsed, so the editor shows it at once. */
class RefusedTag extends Tag {
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
    super(token, remainTokens, liquid);
    throw new Error(`${token.name} is not available in Herald templates: write the content in place`);
  }
  // Never reached: the constructor refuses the tag.
  override render(): void {}
}

type FilterHandler = (this: unknown, value: unknown, ...args: unknown[]) => unknown;

function createEngine(mode: LiquidMode): Liquid {
  const engine = new Liquid({
    fs: NO_FILES,
    relativeReference: false,
    strictFilters: true,
    ownPropertyOnly: true,
    jsTruthy: false,
    // Dates format the same on every machine: UTC, English names.
    timezoneOffset: 0,
    locale: "en-US",
    parseLimit: PARSE_LIMIT_CHARACTERS,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: MEMORY_LIMIT,
    ...(mode === "html" ? { outputEscape: "escape" as const } : {}),
  });
  for (const name of ["include", "render", "layout", "block"]) engine.registerTag(name, RefusedTag);
  // Core is pure: a render must not read the clock or a random source, or previews and sends
  // of one version would differ. Dates come from data; "sample" has no pure equivalent.
  engine.unregisterFilter("sample");
  for (const name of ["date", "date_to_xmlschema", "date_to_rfc822", "date_to_string", "date_to_long_string"]) {
    const builtIn = engine.filters[name] as FilterHandler;
    engine.registerFilter(name, function (this: unknown, value: unknown, ...args: unknown[]) {
      if (value === "now" || value === "today") {
        throw new Error(`"${value}" is not available in Herald templates: pass the date in the event's data`);
      }
      return builtIn.call(this, value, ...args);
    });
  }
  return engine;
}

const ENGINES: Readonly<Record<LiquidMode, Liquid>> = { html: createEngine("html"), text: createEngine("text") };

type Parsed = { ok: true; templates: Template[] } | LiquidSyntaxError;

// Dispatch renders the same published sources over and over: parse each once. Bounded by
// entries and by characters, since one email html alone may be 512 KiB.
const cache = new Map<string, Template[]>();
let cachedCharacters = 0;

function errorDetails(error: unknown): { message: string; line?: number; column?: number } {
  if (!(error instanceof Error)) return { message: String(error) };
  // liquidjs appends ", line:3, col:7" to its messages; the position travels apart.
  const message = error.message.replace(/, line:\d+, col:\d+$/, "");
  if (!LiquidError.is(error) || error.token === undefined) return { message };
  const [line, column] = error.token.getPosition();
  return { message, line, column };
}

function parse(source: string, mode: LiquidMode): Parsed {
  const key = `${mode}:${source}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return { ok: true, templates: hit };
  }
  let templates: Template[];
  try {
    templates = ENGINES[mode].parse(source);
  } catch (error) {
    const { message, line = 1, column = 1 } = errorDetails(error);
    return { ok: false, message, line, column };
  }
  cache.set(key, templates);
  cachedCharacters += key.length;
  while (cache.size > CACHE_ENTRIES || cachedCharacters > CACHE_CHARACTERS) {
    const oldest = cache.keys().next().value;
    if (oldest === undefined) break;
    cache.delete(oldest);
    cachedCharacters -= oldest.length;
  }
  return { ok: true, templates };
}

/** Whether a source parses, and if not, why and where. */
export function parseLiquid(source: string, mode: LiquidMode): { ok: true } | LiquidSyntaxError {
  const parsed = parse(source, mode);
  return parsed.ok ? { ok: true } : parsed;
}

/**
 * The scope paths a source reads, such as "data.order.total", sorted. Loop variables and
 * assigns are left out; index segments are dropped (data.items[0].name → data.items.name);
 * a computed key ends the path (data[user.key] → data, plus user.key). Empty when it does not parse.
 */
export function liquidVariables(source: string): string[] {
  const parsed = parse(source, "text");
  if (!parsed.ok) return [];
  const paths = new Set<string>();
  for (const segments of ENGINES.text.globalVariableSegmentsSync(parsed.templates, { partials: false })) {
    const names: string[] = [];
    for (const segment of segments) {
      if (typeof segment === "number") continue;
      if (typeof segment !== "string") break;
      names.push(segment);
    }
    paths.add(names.join("."));
  }
  return [...paths].sort();
}

/** Renders a source against a scope, within the time, memory and output limits. */
export function renderLiquid(source: string, mode: LiquidMode, scope: object): LiquidRenderResult {
  const parsed = parse(source, mode);
  if (!parsed.ok) return { ok: false, kind: "syntax", message: parsed.message, line: parsed.line, column: parsed.column };
  let output: string | undefined;
  for (let tries = 1; output === undefined; tries++) {
    try {
      output = String(ENGINES[mode].renderSync(parsed.templates, scope));
    } catch (error) {
      // A template meeting data it did not expect (a bad filter argument, a limit) is an
      // outcome of that render, not a crash of the batch sending it.
      const details = errorDetails(error);
      if (details.message !== RENDER_LIMIT_MESSAGE || tries === RENDER_TRIES) return { ok: false, kind: "render_error", ...details };
    }
  }
  if (output.length > MAX_LIQUID_OUTPUT_BYTES || utf8Bytes(output) > MAX_LIQUID_OUTPUT_BYTES) {
    return { ok: false, kind: "too_large", message: `renders to more than ${MAX_LIQUID_OUTPUT_BYTES / 1024 / 1024} MiB` };
  }
  return { ok: true, output };
}
