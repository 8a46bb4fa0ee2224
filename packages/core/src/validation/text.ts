import { z } from "zod";

// NUL is refused by Postgres text columns and the other C0 controls are never meaningful in
// names, ids or addresses: reject them at the boundary, not as a 500 from the database.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** A single-line text field: trimmed, bounded, no control characters. */
export function plainText(max: number) {
  return z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !CONTROL_CHARACTERS.test(s) && !/[\r\n]/.test(s), "must not contain control characters or line breaks");
}

export const EmailSchema = z
  .string()
  .trim()
  .max(320, "must be at most 320 characters")
  .refine((s) => !CONTROL_CHARACTERS.test(s), "must not contain control characters")
  .pipe(z.email("must be an email address"))
  .transform((s) => s.toLowerCase());

export const PasswordSchema = z
  .string()
  .min(12, "must be at least 12 characters")
  .max(1024, "must be at most 1024 characters");

export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value);
}
