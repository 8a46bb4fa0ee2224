import {
  ActivityKeySchema,
  ActivityNameSchema,
  AttributesSchema,
  DeviceTokenSchema,
  ChannelSchema,
  E164Schema,
  EmailSchema,
  ExternalIdSchema,
  LocaleSchema,
  NotificationTypeKeySchema,
  OccurredAtSchema,
  PlatformSchema,
  TimeZoneSchema,
} from "@herald/core";
import { z } from "zod";

/** `data` on an event: a JSON object of at most 32 KiB. */
export const EVENT_DATA_LIMIT = 32 * 1024;

export const EventSchema = z.object({
  eventId: ExternalIdSchema,
  type: NotificationTypeKeySchema,
  userId: ExternalIdSchema,
  occurredAt: OccurredAtSchema.optional(),
  data: z
    .record(z.string(), z.unknown())
    .refine((d) => Buffer.byteLength(JSON.stringify(d)) <= EVENT_DATA_LIMIT, `must be at most ${EVENT_DATA_LIMIT / 1024} KiB of JSON`)
    .optional(),
});

export const EventBatchSchema = z.object({ events: z.array(z.unknown()).min(1).max(1000, "at most 1,000 events per batch") });

export const UserPatchSchema = z
  .object({
    email: EmailSchema.nullable().optional(),
    phone: E164Schema.nullable().optional(),
    timezone: TimeZoneSchema.nullable().optional(),
    locale: LocaleSchema.nullable().optional(),
    attributes: AttributesSchema.optional(),
  })
  .strict();

export const DeviceSchema = z
  .object({
    token: DeviceTokenSchema,
    platform: PlatformSchema,
  })
  .strict();

export const ActivitySchema = z
  .object({
    id: ActivityKeySchema.optional(),
    name: ActivityNameSchema,
    properties: z.record(z.string(), z.unknown()).optional(),
    occurredAt: OccurredAtSchema.optional(),
  })
  .strict();

// listUserNotifications' keyset cursor: base64url of "<created_at µs>|<id>". A cursor that is not
// one is refused rather than silently read as "from the start", which would loop a pager forever.
const HistoryCursorSchema = z
  .string()
  .max(200)
  .refine((cursor) => /^\d{1,19}\|\d{1,18}$/.test(Buffer.from(cursor, "base64url").toString()), "is not a nextCursor from a previous page");

export const CursorQuerySchema = z.object({
  cursor: HistoryCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const SandboxQuerySchema = z.object({
  to: z.string().max(4096).optional(),
  channel: ChannelSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export const UserIdParamSchema = ExternalIdSchema;
