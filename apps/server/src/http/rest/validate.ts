import type { Request } from "express";
import type { z } from "zod";
import { AppError } from "../../errors.ts";

// NUL is refused by Postgres text and jsonb; the other C0 controls (but tab, newline, return)
// are never meaningful. Both are a 400 naming the field, never a 500 from the database.
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const FORBIDDEN_CONTROL_ALL = new RegExp(FORBIDDEN_CONTROL.source, "g");

/**
 * How deeply a body may nest: far beyond any real payload, far below the depth at which a
 * recursive walk overflows the stack or Postgres's jsonb parser refuses the value.
 */
export const MAX_JSON_DEPTH = 64;

/** What is wrong with a JSON value as a whole, at a path such as `data.items.2.name` (as zod names it). */
export interface JsonProblem {
  /** "" when the value itself (a bare string) is the problem. */
  path: string;
  message: string;
}

const CONTROL_MESSAGE = "must not contain NUL or other control characters";

// A key holding a control character is named with it escaped, so the message can be logged.
function printable(key: string): string {
  return key.replace(FORBIDDEN_CONTROL_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The first string or key holding a control character, or the first value nested too deeply. */
export function findJsonProblem(value: unknown, path = "", depth = 0): JsonProblem | null {
  if (typeof value === "string") return FORBIDDEN_CONTROL.test(value) ? { path, message: CONTROL_MESSAGE } : null;
  if (typeof value !== "object" || value === null) return null;
  if (depth >= MAX_JSON_DEPTH) return { path, message: `must not nest more than ${MAX_JSON_DEPTH} levels deep` };
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findJsonProblem(item, path ? `${path}.${i}` : String(i), depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const here = path ? `${path}.${printable(key)}` : printable(key);
    if (FORBIDDEN_CONTROL.test(key)) return { path: here, message: `key ${CONTROL_MESSAGE}` };
    const found = findJsonProblem(item, here, depth + 1);
    if (found) return found;
  }
  return null;
}

export interface FieldIssue {
  path: string;
  message: string;
}

const joinPath = (...parts: string[]) => parts.filter(Boolean).join(".");

export function issuesOf(error: z.ZodError, prefix = ""): FieldIssue[] {
  return error.issues.map((i) => ({ path: joinPath(prefix, ...i.path.map(String)), message: i.message }));
}

/** One line naming every bad field, as the error's message. */
export function describeIssues(fields: readonly FieldIssue[]): string {
  return fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join("; ");
}

function badRequest(fields: FieldIssue[]): AppError {
  return new AppError("BAD_REQUEST", describeIssues(fields), { details: { fields }, apiCode: "invalid_request" });
}

/** Throws a 400 naming the field when a value holds a control character or nests too deeply. */
export function assertStorableJson(value: unknown, where = ""): void {
  const problem = findJsonProblem(value);
  if (problem) throw badRequest([{ path: joinPath(where, problem.path) || "(body)", message: problem.message }]);
}

/** Parses a value with a schema only, or throws a 400 naming every bad field. */
export function parseSchemaOrThrow<T extends z.ZodType>(schema: T, value: unknown, where = ""): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(issuesOf(parsed.error, where));
  return parsed.data;
}

/** Checks a value is storable, then parses it with a schema; a 400 naming the bad field otherwise. */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, where = ""): z.infer<T> {
  assertStorableJson(value, where);
  return parseSchemaOrThrow(schema, value, where);
}

/** The JSON body; 400 when there is none, 415 when the request did not send JSON. */
export function jsonBody(req: Request): unknown {
  const type = req.is("application/json");
  // null: the request has no body at all (type-is looks at Content-Length and Transfer-Encoding).
  if (type === null) {
    throw new AppError("BAD_REQUEST", "The body is empty: send a JSON body as application/json", { apiCode: "invalid_request" });
  }
  if (!type) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json", { apiCode: "unsupported_media_type" });
  }
  return req.body;
}
