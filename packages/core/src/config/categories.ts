import { z } from "zod";
import { plainText } from "../validation/text.ts";

/** A category's key, such as "marketing" or "billing.receipts". */
export const CategoryKeySchema = z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not a category key: start with a lower-case letter, then up to 63 lower-case letters, digits, "_", "." or "-"`,
});
export type CategoryKey = z.infer<typeof CategoryKeySchema>;

/** At most `max` notifications of a category per user within the window; the rest are deferred or skipped. */
export const FrequencyCapSchema = z.strictObject({
  max: z.number().int("must be a whole number").min(1, "must be at least 1").max(10_000, "must be at most 10000"),
  windowSeconds: z
    .number()
    .int("must be a whole number of seconds")
    .min(60, "must be at least 60 seconds")
    .max(2_592_000, "must be at most 2592000 seconds (30 days)"),
  action: z.enum(["defer", "skip"], {
    error: (issue) => `${JSON.stringify(issue.input)} is not a frequency cap action: use defer or skip`,
  }),
});
export type FrequencyCap = z.infer<typeof FrequencyCapSchema>;

/** The body that creates or replaces a category. */
export const CategoryInputSchema = z.strictObject({
  label: plainText(100),
  /** Mandatory categories (security, receipts) cannot be switched off by users. */
  mandatory: z.boolean().optional(),
  /** Whether a user with no preference row receives the category on each channel. */
  defaults: z.strictObject({ push: z.boolean().optional(), email: z.boolean().optional(), sms: z.boolean().optional() }).optional(),
  /** Other keys callers may use for this category, so "reminder" and "reminders" land on one gate. */
  aliases: z
    .array(CategoryKeySchema)
    .max(20, "must have at most 20 aliases")
    .superRefine((aliases, ctx) => {
      aliases.forEach((alias, index) => {
        if (aliases.indexOf(alias) !== index) ctx.addIssue({ code: "custom", message: `alias "${alias}" is listed twice`, path: [index] });
      });
    })
    .optional(),
  tracking: z.strictObject({ opens: z.boolean().optional(), clicks: z.boolean().optional() }).optional(),
  frequencyCap: FrequencyCapSchema.nullable().optional(),
});
export type CategoryInput = z.infer<typeof CategoryInputSchema>;
