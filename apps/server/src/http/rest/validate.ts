import type { Request } from "express";
import type { z } from "zod";
import { AppError } from "../../errors.ts";

// NUL is refused by Postgres text and jsonb; the other C0 controls (but tab, newline, return)
// are never meaningful. Both are a 400 naming the field, never a 500 from the database.
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** The first string (or object key) in a JSON value holding a control character, as a path. */
export function findControlCharacter(value: unknown, path = ""): string | null {
  if (typeof value === "string") return FORBIDDEN_CONTROL.test(value) ? path || "(body)" : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findControlCharacter(item, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      if (FORBIDDEN_CONTROL.test(key)) return here;
      const found = findControlCharacter(item, here);
      if (found) return found;
    }
  }
  return null;
}

export interface FieldIssue {
  path: string;
  message: string;
}

export function issuesOf(error: z.ZodError, prefix = ""): FieldIssue[] {
  return error.issues.map((i) => ({ path: [prefix, ...i.path.map(String)].filter(Boolean).join("."), message: i.message }));
}

/** Parses a value with a schema, or throws a 400 naming every bad field. */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, where = ""): z.infer<T> {
  const control = findControlCharacter(value);
  if (control) {
    throw new AppError("BAD_REQUEST", `${where ? `${where}.` : ""}${control}: must not contain NUL or other control characters`, {
      details: { fields: [{ path: [where, control].filter(Boolean).join("."), message: "must not contain NUL or other control characters" }] },
      apiCode: "invalid_request",
    });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const fields = issuesOf(parsed.error, where);
    throw new AppError("BAD_REQUEST", fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join("; "), {
      details: { fields },
      apiCode: "invalid_request",
    });
  }
  return parsed.data;
}

/** The JSON body, or 415 when the request did not send JSON. */
export function jsonBody(req: Request): unknown {
  if (!req.is("application/json")) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json", { apiCode: "unsupported_media_type" });
  }
  return req.body;
}
