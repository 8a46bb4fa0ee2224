import { z } from "zod";
import { ChannelSchema, LaneSchema } from "../channels/channels.ts";
import { InlineContentSchema } from "../content/inline-content.ts";
import { CategoryKeySchema } from "./categories.ts";

/** A notification type's key, such as "order.paid" or "otp:login". */
export const NotificationTypeKeySchema = z.string().regex(/^[a-z][a-z0-9_.:-]{0,127}$/, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not a notification type key: start with a lower-case letter, then up to 127 lower-case letters, digits, "_", ".", ":" or "-"`,
});
export type NotificationTypeKey = z.infer<typeof NotificationTypeKeySchema>;

/** A template's key, such as "order.paid". */
export const TemplateKeySchema = z.string().regex(/^[a-z][a-z0-9_.-]{0,127}$/, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not a template key: start with a lower-case letter, then up to 127 lower-case letters, digits, "_", "." or "-"`,
});
export type TemplateKey = z.infer<typeof TemplateKeySchema>;

/** One channel a notification type sends on: its category, lane and content. */
export const ChannelStepSchema = z
  .strictObject({
    channel: ChannelSchema,
    category: CategoryKeySchema,
    lane: LaneSchema.default("bulk"),
    template: TemplateKeySchema.optional(),
    content: InlineContentSchema.optional(),
  })
  .superRefine((step, ctx) => {
    if (step.template !== undefined && step.content !== undefined) {
      ctx.addIssue({ code: "custom", message: "give either template or content, not both", path: ["content"] });
    } else if (step.template === undefined && step.content === undefined) {
      ctx.addIssue({ code: "custom", message: "give either template or content, one of them is required", path: ["template"] });
    }
  });
export type ChannelStep = z.infer<typeof ChannelStepSchema>;

/** The body that creates or replaces a notification type. */
export const NotificationTypeInputSchema = z.strictObject({
  channels: z
    .array(ChannelStepSchema)
    .min(1, "must list at least one channel")
    .max(3, "must list at most 3 channels")
    .superRefine((steps, ctx) => {
      steps.forEach((step, index) => {
        if (steps.findIndex((other) => other.channel === step.channel) !== index) {
          ctx.addIssue({ code: "custom", message: `channel "${step.channel}" is listed twice`, path: [index, "channel"] });
        }
      });
    }),
});
export type NotificationTypeInput = z.infer<typeof NotificationTypeInputSchema>;
