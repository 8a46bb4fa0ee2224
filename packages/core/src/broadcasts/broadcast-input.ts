import { z } from "zod";
import { ChannelSchema, LaneSchema } from "../channels/channels.ts";
import { CategoryKeySchema } from "../config/categories.ts";
import { TemplateKeySchema } from "../config/notification-types.ts";
import { TimeZoneSchema } from "../time/time-zone.ts";
import { utf8Bytes } from "../templates/utf8-bytes.ts";
import { plainText } from "../validation/text.ts";

/** One published version of the broadcast's template and the share of the audience it gets. */
export const BroadcastVariantSchema = z.strictObject({
  version: z.number().int().min(1, "must be a published version number"),
  percent: z.number().int().min(1, "must be at least 1").max(100, "must be at most 100"),
});
export type BroadcastVariant = z.infer<typeof BroadcastVariantSchema>;

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/**
 * When sending starts: now; at one instant (the time zone is how the marketer wrote it, kept for
 * display); or at a wall-clock time in each recipient's own time zone (recipients without one use
 * the workspace default), so "9:00" means 9:00 for everyone.
 */
export const BroadcastScheduleSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("now") }),
  z.strictObject({ kind: z.literal("at"), at: z.iso.datetime({ offset: true, error: "must be an ISO 8601 instant with an offset" }), timezone: TimeZoneSchema }),
  z.strictObject({
    kind: z.literal("local"),
    localDateTime: z.string().regex(LOCAL_DATE_TIME, "must be a local date and time such as 2026-12-24T09:00"),
  }),
]);
export type BroadcastSchedule = z.infer<typeof BroadcastScheduleSchema>;

/** What a marketer composes; every field is checked here, existence of the referenced rows by the server. */
export const BroadcastInputSchema = z
  .strictObject({
    name: plainText(200),
    segmentId: z.string().regex(/^\d{1,18}$/, "must be a segment id"),
    templateKey: TemplateKeySchema,
    variants: z.array(BroadcastVariantSchema).min(1, "needs at least one template version").max(5, "at most 5 variants"),
    channels: z.array(ChannelSchema).min(1, "choose at least one channel").max(3),
    category: CategoryKeySchema,
    lane: LaneSchema.default("bulk"),
    holdoutPercent: z.number().min(0).max(50, "a holdout above 50 % leaves too few to treat").multipleOf(0.1, "at most one decimal"),
    throttlePerMinute: z.number().int().min(1).max(1_000_000).nullable().default(null),
    /** What the template reads as {{ data.* }} for every recipient (a promo code, a date). */
    data: z.record(z.string(), z.unknown()).default({}),
  })
  .superRefine((b, ctx) => {
    const total = b.variants.reduce((sum, v) => sum + v.percent, 0);
    if (total !== 100) ctx.addIssue({ code: "custom", path: ["variants"], message: `percentages must sum to 100 (they sum to ${total})` });
    const versions = new Set(b.variants.map((v) => v.version));
    if (versions.size !== b.variants.length) ctx.addIssue({ code: "custom", path: ["variants"], message: "each variant must be a different version" });
    if (new Set(b.channels).size !== b.channels.length) ctx.addIssue({ code: "custom", path: ["channels"], message: "a channel is listed twice" });
    if (utf8Bytes(JSON.stringify(b.data)) > 32 * 1024) ctx.addIssue({ code: "custom", path: ["data"], message: "must be at most 32 KiB" });
  });
export type BroadcastInput = z.infer<typeof BroadcastInputSchema>;
