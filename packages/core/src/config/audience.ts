import { z } from "zod";
import { ChannelSchema } from "../channels/channels.ts";
import { ClockTimeSchema } from "../quiet-hours/quiet-hours.ts";
import { TimeZoneSchema } from "../time/time-zone.ts";
import { hasControlCharacters } from "../validation/text.ts";
import { CategoryKeySchema } from "./categories.ts";

/** A phone number in E.164 form. */
export const E164Schema = z.string().regex(/^\+[1-9]\d{6,14}$/, "must be an E.164 phone number such as +4915112345678");

/** A BCP 47 language tag, normalised to its canonical form ("en-us" becomes "en-US"). */
export const LocaleSchema = z
  .string()
  .max(35, "must be at most 35 characters")
  .refine(
    (tag) => {
      try {
        return Intl.getCanonicalLocales(tag).length === 1;
      } catch {
        return false;
      }
    },
    { error: (issue) => `${JSON.stringify(issue.input)} is not a BCP 47 language tag such as "en" or "pt-BR"` },
  )
  .transform((tag) => Intl.getCanonicalLocales(tag)[0] ?? tag);

/** The customer's own id for a user; kept exactly as given. */
export const ExternalIdSchema = z
  .string()
  .min(1, "must not be empty")
  .max(256, "must be at most 256 characters")
  .refine((id) => !hasControlCharacters(id) && !/[\r\n]/.test(id), "must not contain control characters or line breaks");

/** A user attribute's value; null deletes the attribute when merged. */
export type AttributeValue = string | number | boolean | null | string[];

/** A user's attributes, as segments and templates read them. */
export type Attributes = Record<string, AttributeValue>;

const MAX_ATTRIBUTES = 100;
const MAX_ATTRIBUTE_TEXT = 2000;
const MAX_LIST_ITEMS = 100;
const ATTRIBUTE_NAME = /^[a-zA-Z_][a-zA-Z0-9_.]{0,63}$/;
// Multi-line text is fine in an attribute; other controls (NUL above all) are not.
const TEXT_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/;

function textProblem(name: string, text: string): string | null {
  if (text.length > MAX_ATTRIBUTE_TEXT) return `attribute "${name}" must be at most ${MAX_ATTRIBUTE_TEXT} characters`;
  if (TEXT_CONTROL.test(text)) return `attribute "${name}" must not contain control characters other than line breaks and tabs`;
  return null;
}

function valueProblem(name: string, value: unknown): string | null {
  if (value === null || typeof value === "boolean") return null;
  if (typeof value === "string") return textProblem(name, value);
  if (typeof value === "number") return Number.isFinite(value) ? null : `attribute "${name}" must be a finite number`;
  if (Array.isArray(value)) {
    if (value.length > MAX_LIST_ITEMS) return `attribute "${name}" must list at most ${MAX_LIST_ITEMS} items`;
    for (const item of value) {
      if (typeof item !== "string") return `attribute "${name}" must be a list of strings only`;
      const problem = textProblem(name, item);
      if (problem) return problem;
    }
    return null;
  }
  return `attribute "${name}" must be a string, number, boolean, null or a list of strings`;
}

/** A JSON object of user attributes: at most 100, with plain names and simple values. */
export const AttributesSchema = z.custom<Attributes>().superRefine((value, ctx) => {
  const prototype: unknown = typeof value === "object" && value !== null ? Object.getPrototypeOf(value) : undefined;
  if (Array.isArray(value) || (prototype !== Object.prototype && prototype !== null)) {
    ctx.addIssue({ code: "custom", message: "must be a JSON object of attributes" });
    return;
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_ATTRIBUTES) {
    ctx.addIssue({ code: "custom", message: `must have at most ${MAX_ATTRIBUTES} attributes, got ${entries.length}` });
  }
  for (const [name, item] of entries) {
    // "__proto__" fits the pattern, but copying it onto an object would replace its prototype.
    if (!ATTRIBUTE_NAME.test(name) || name === "__proto__") {
      ctx.addIssue({
        code: "custom",
        path: [name],
        message: `attribute name ${JSON.stringify(name)} must start with a letter or "_" and use only letters, digits, "_" and "." (at most 64 characters)`,
      });
      continue;
    }
    const problem = valueProblem(name, item);
    if (problem) ctx.addIssue({ code: "custom", path: [name], message: problem });
  }
});

const differentEnds = {
  error: (issue: { input: unknown }) => `start and end are both "${(issue.input as { start: string }).start}": a quiet window must have a length`,
  path: ["end"],
};

/** Quiet hours for one category on one channel, replacing the user's general window. */
export const QuietHoursOverrideSchema = z
  .strictObject({ category: CategoryKeySchema, channel: ChannelSchema, start: ClockTimeSchema, end: ClockTimeSchema })
  .refine((override) => override.start !== override.end, differentEnds);
export type QuietHoursOverride = z.infer<typeof QuietHoursOverrideSchema>;

/** A user's quiet hours; null removes them. */
export const QuietHoursInputSchema = z
  .strictObject({
    start: ClockTimeSchema,
    end: ClockTimeSchema,
    timezone: TimeZoneSchema.optional(),
    overrides: z
      .array(QuietHoursOverrideSchema)
      .max(200, "must list at most 200 overrides")
      .superRefine((overrides, ctx) => {
        overrides.forEach((override, index) => {
          const first = overrides.findIndex((other) => other.category === override.category && other.channel === override.channel);
          if (first !== index) {
            ctx.addIssue({ code: "custom", path: [index], message: `category "${override.category}" on ${override.channel} is listed twice` });
          }
        });
      })
      .optional(),
  })
  .refine((window) => window.start !== window.end, differentEnds)
  .nullable();
export type QuietHoursInput = z.infer<typeof QuietHoursInputSchema>;

/** A batch of a user's choices per category and channel. */
export const PreferenceInputSchema = z.strictObject({
  preferences: z
    .array(z.strictObject({ category: CategoryKeySchema, channel: ChannelSchema, enabled: z.boolean() }))
    .min(1, "must list at least one preference")
    .max(200, "must list at most 200 preferences")
    .superRefine((preferences, ctx) => {
      preferences.forEach((preference, index) => {
        const first = preferences.findIndex((other) => other.category === preference.category && other.channel === preference.channel);
        if (first !== index) {
          ctx.addIssue({ code: "custom", path: [index], message: `category "${preference.category}" on ${preference.channel} is listed twice` });
        }
      });
    }),
});
export type PreferenceInput = z.infer<typeof PreferenceInputSchema>;
