import { z } from "zod";
import { hasControlCharacters } from "../validation/text.ts";

const PLACEHOLDER = /\{\{\s*(.*?)\s*\}\}/g;
const VARIABLE = /^(user|data)(\.[A-Za-z_][A-Za-z0-9_]*)+$/;
const MAX_HTML_BYTES = 512 * 1024;

/** The expressions inside every `{{ … }}` of a text, trimmed, in order of appearance. */
export function findPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? "");
}

function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

function withPlaceholders(field: z.ZodString) {
  return field.superRefine((text, ctx) => {
    for (const expression of findPlaceholders(text)) {
      if (!VARIABLE.test(expression)) {
        ctx.addIssue({
          code: "custom",
          message: `"{{ ${expression} }}" is not a placeholder: use {{ user.<field> }} or {{ data.<path> }}`,
        });
      }
    }
  });
}

const headerLine = (max: number) =>
  withPlaceholders(
    z
      .string()
      .min(1, "must not be empty")
      .max(max, `must be at most ${max} characters`)
      .refine((s) => !/[\r\n]/.test(s) && !hasControlCharacters(s), "must be one line without control characters"),
  );

/** Content written on a notification type's channel until templates land. */
export const InlineContentSchema = z.object({
  title: headerLine(300).optional(),
  subject: headerLine(300).optional(),
  body: withPlaceholders(
    z
      .string()
      .min(1, "must not be empty")
      .max(10_000, "must be at most 10000 characters")
      .refine((s) => !hasControlCharacters(s), "must not contain control characters"),
  ),
  html: withPlaceholders(
    z
      .string()
      .refine((s) => utf8Bytes(s) <= MAX_HTML_BYTES, "must be at most 512 KiB")
      .refine((s) => !hasControlCharacters(s), "must not contain control characters"),
  ).optional(),
});
export type InlineContent = z.infer<typeof InlineContentSchema>;

/** Inline content with every placeholder filled in. */
export interface RenderedContent {
  title?: string;
  subject?: string;
  body: string;
  html?: string;
}

/** What a render produced, or the first variable it could not fill. */
export type RenderResult = { ok: true; rendered: RenderedContent } | { ok: false; missingVariable: string };

/** The values placeholders read: the user's attributes and the event's data. */
export interface RenderScope {
  user: Record<string, unknown>;
  data: Record<string, unknown>;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function lookUp(scope: RenderScope, variable: string): string | undefined {
  if (!VARIABLE.test(variable)) return undefined;
  const [root, ...path] = variable.split(".");
  let value: unknown = root === "user" ? scope.user : root === "data" ? scope.data : undefined;
  for (const key of path) {
    // Own properties only: {{ user.constructor }} must not reach Object's prototype.
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return undefined;
}

type Escape = (value: string) => string;

const escapeHtml: Escape = (value) => value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
// A line break in a subject or title would start a new mail header.
const oneLine: Escape = (value) => value.replace(/\r\n|[\r\n]/g, " ");
const asIs: Escape = (value) => value;

/**
 * Fills `{{ user.x }}` and `{{ data.a.b }}` placeholders. A missing or null value fails the
 * render rather than sending "Hello ,"; the engine dead-letters with render_failed:<variable>.
 * Substitution is a single pass, so a value that looks like a placeholder stays literal.
 */
export function renderInlineContent(content: InlineContent, scope: RenderScope): RenderResult {
  const missing: string[] = [];
  const fill = (text: string, escape: Escape): string =>
    text.replace(PLACEHOLDER, (whole, expression: string) => {
      const value = lookUp(scope, expression);
      if (value === undefined) missing.push(expression);
      return value === undefined ? whole : escape(value);
    });

  const rendered: RenderedContent = { body: "" };
  if (content.title !== undefined) rendered.title = fill(content.title, oneLine);
  if (content.subject !== undefined) rendered.subject = fill(content.subject, oneLine);
  rendered.body = fill(content.body, asIs);
  if (content.html !== undefined) rendered.html = fill(content.html, escapeHtml);
  const [missingVariable] = missing;
  return missingVariable === undefined ? { ok: true, rendered } : { ok: false, missingVariable };
}
