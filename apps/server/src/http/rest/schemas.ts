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

export const EventSchema = z.object({
  eventId: ExternalIdSchema,
  type: NotificationTypeKeySchema,
  userId: ExternalIdSchema,
  occurredAt: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time such as 2026-11-30T12:00:00Z" }).optional(),
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
    id: z.string().min(1).max(256).optional(),
    name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/, "must be a name like session_completed"),
    properties: z.record(z.string(), z.unknown()).optional(),
    occurredAt: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

export const CursorQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const SandboxQuerySchema = z.object({
  to: z.string().max(4096).optional(),
  channel: ChannelSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export const UserIdParamSchema = ExternalIdSchema;
