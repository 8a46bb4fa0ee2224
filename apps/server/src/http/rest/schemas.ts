import {
  AttributesSchema,
  ChannelSchema,
  E164Schema,
  EmailSchema,
  ExternalIdSchema,
  LocaleSchema,
  NotificationTypeKeySchema,
  PlatformSchema,
  TimeZoneSchema,
} from "@herald/core";
import { z } from "zod";

/** `data` on an event: a JSON object of at most 32 KiB. */
export const EVENT_DATA_LIMIT = 32 * 1024;

// Zod's ISO check allows offsets up to ±23:59 and year 0000; Postgres refuses both (with a
// 500, were they let through). Days are checked per month by zod already.
const OFFSET = /(?:Z|[+-](\d{2}):\d{2})$/i;

function isStorableInstant(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const offsetHours = Number(OFFSET.exec(value)?.[1] ?? 0);
  return year >= 1 && offsetHours <= 15 && !Number.isNaN(Date.parse(value));
}

/** When something happened: an ISO 8601 date-time with an offset Postgres can store. */
export const OccurredAtSchema = z.iso
  .datetime({ offset: true, error: "must be an ISO 8601 date-time such as 2026-11-30T12:00:00Z" })
  .refine(isStorableInstant, "must be a date-time from year 0001 to 9999 with an offset of at most ±15:59");

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
    token: z.string().min(1, "must not be empty").max(4096, "must be at most 4,096 characters"),
    platform: PlatformSchema,
  })
  .strict();

export const ActivitySchema = z
  .object({
    id: z.string().min(1, "must not be empty").max(256, "must be at most 256 characters").optional(),
    name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/, "must be a name like session_completed"),
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
