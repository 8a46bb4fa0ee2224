import type { z } from "zod";

/** A cell read as a value, or why it cannot be. */
export type Parsed<T> = { value: T } | { reason: string };

/** A row read as a record, or why it is refused. */
export type Checked<T> = { ok: true; record: T } | { ok: false; reason: string };

/** "email "x@": must be an email address" — the value is quoted only while it is short enough to read. */
export function problem(label: string, text: string, message: string): string {
  const shown = text.length <= 60 ? ` ${JSON.stringify(text)}` : ` (${text.length} characters)`;
  return `${label}${shown}: ${message}`;
}

export function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? "is not valid";
}

/** A cell checked by the schema the REST API uses for the same field, refused in its words. */
export function parseWith<S extends z.ZodType>(schema: S, label: string) {
  return (text: string): Parsed<z.output<S>> => {
    const result = schema.safeParse(text);
    return result.success ? { value: result.data } : { reason: problem(label, text, firstMessage(result.error)) };
  };
}
