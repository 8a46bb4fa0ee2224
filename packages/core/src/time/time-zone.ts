import { z } from "zod";

/** Whether the runtime's time zone database knows this IANA name. */
export function isTimeZone(name: string): boolean {
  // Intl also accepts offsets such as "+01:00"; Postgres reads those POSIX-style with the sign
  // flipped, so only names are allowed.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name such as "Europe/Berlin", normalised to its canonical spelling. */
export const TimeZoneSchema = z
  .string()
  .refine(isTimeZone, { error: (issue) => `${JSON.stringify(issue.input)} is not an IANA time zone such as "Europe/Berlin"` })
  .transform((name) => new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone);
