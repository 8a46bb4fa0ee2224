import { z } from "zod";
import { AttributesSchema } from "../config/audience.ts";
import { CategoryKeySchema } from "../config/categories.ts";
import { ChannelSchema, PlatformSchema } from "../channels/channels.ts";

/** What an import's rows become: users (upserted), suppressed addresses, opt-out preferences, push devices or activities. */
export const IMPORT_KINDS = ["users", "suppressions", "opt_outs", "devices", "activities"] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** A user's own fields an import column can fill; `externalId` is required. */
export const USER_FIELDS = ["externalId", "email", "phone", "timezone", "locale"] as const;
export type UserField = (typeof USER_FIELDS)[number];

/** How an attribute column's text is read. */
export const ATTRIBUTE_TYPES = ["string", "number", "boolean", "date"] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** Rows shown while mapping and previewing. */
export const IMPORT_SAMPLE_ROWS = 20;
/** A header wider than this is refused at upload: no mapping screen can show it. */
export const MAX_IMPORT_COLUMNS = 500;
/** The most attribute columns one import maps (a user holds at most 100 attributes). */
export const MAX_IMPORT_ATTRIBUTES = 100;

const ColumnSchema = z.number().int("must be a column's position").min(0, "must be a column's position").max(MAX_IMPORT_COLUMNS - 1);

const AttributeNameSchema = z.string().superRefine((name, ctx) => {
  // The same rule the REST API applies to attribute names, so an import never stores a name it would refuse.
  const parsed = AttributesSchema.safeParse({ [name]: null });
  if (!parsed.success) ctx.addIssue({ code: "custom", message: parsed.error.issues[0]?.message ?? "is not an attribute name" });
});

/** One column read as an attribute of the user. */
export const AttributeColumnSchema = z.strictObject({
  column: ColumnSchema,
  name: AttributeNameSchema,
  type: z.enum(ATTRIBUTE_TYPES, { error: (issue) => `${JSON.stringify(issue.input)} is not an attribute type: use string, number, boolean or date` }),
});
export type AttributeColumn = z.infer<typeof AttributeColumnSchema>;

const UsersMappingSchema = z
  .strictObject({
    kind: z.literal("users"),
    fields: z.strictObject({
      externalId: ColumnSchema,
      email: ColumnSchema.optional(),
      phone: ColumnSchema.optional(),
      timezone: ColumnSchema.optional(),
      locale: ColumnSchema.optional(),
    }),
    attributes: z.array(AttributeColumnSchema).max(MAX_IMPORT_ATTRIBUTES, `must map at most ${MAX_IMPORT_ATTRIBUTES} attribute columns`),
  })
  .superRefine((mapping, ctx) => {
    const used = new Map<number, string>();
    const use = (column: number, what: string, path: PropertyKey[]) => {
      const earlier = used.get(column);
      if (earlier) ctx.addIssue({ code: "custom", path, message: `column ${column + 1} is already mapped to ${earlier}` });
      else used.set(column, what);
    };
    for (const field of USER_FIELDS) {
      const column = mapping.fields[field];
      if (column !== undefined) use(column, field, ["fields", field]);
    }
    const names = new Set<string>();
    mapping.attributes.forEach((attribute, index) => {
      use(attribute.column, `attribute "${attribute.name}"`, ["attributes", index, "column"]);
      if (names.has(attribute.name)) ctx.addIssue({ code: "custom", path: ["attributes", index, "name"], message: `attribute "${attribute.name}" is mapped twice` });
      names.add(attribute.name);
    });
  });

/** A value for every row, or one read from a column. */
function fixedOrColumn<T extends z.ZodType>(value: T) {
  return z.union([z.strictObject({ fixed: value }), z.strictObject({ column: ColumnSchema })]);
}

const SuppressionsMappingSchema = z.strictObject({
  kind: z.literal("suppressions"),
  address: ColumnSchema,
  channel: fixedOrColumn(z.enum(["email", "sms"], { error: (issue) => `${JSON.stringify(issue.input)} is not an addressable channel: use email or sms` })),
});

const OptOutsMappingSchema = z.strictObject({
  kind: z.literal("opt_outs"),
  userId: ColumnSchema,
  channel: fixedOrColumn(z.union([ChannelSchema, z.literal("all")])),
  category: fixedOrColumn(CategoryKeySchema),
});

/** Refuses a mapping that reads one column as two things (the users mapping says which field took it first). */
function distinctColumns<T extends Record<string, unknown>>(columns: (mapping: T) => Array<[string, { column: number } | { fixed: unknown } | number | undefined]>) {
  return (mapping: T, ctx: z.RefinementCtx) => {
    const used = new Map<number, string>();
    for (const [path, source] of columns(mapping)) {
      const column = typeof source === "number" ? source : source !== undefined && "column" in source ? source.column : undefined;
      if (column === undefined) continue;
      const earlier = used.get(column);
      if (earlier) ctx.addIssue({ code: "custom", path: path.split("."), message: `column ${column + 1} is already mapped to ${earlier}` });
      else used.set(column, path.split(".")[0]!);
    }
  };
}

const DevicesMappingSchema = z
  .strictObject({
    kind: z.literal("devices"),
    userId: ColumnSchema,
    token: ColumnSchema,
    platform: fixedOrColumn(PlatformSchema),
  })
  .superRefine(
    distinctColumns((m) => [
      ["userId", m.userId],
      ["token", m.token],
      ["platform.column", m.platform],
    ]),
  );

const ActivitiesMappingSchema = z
  .strictObject({
    kind: z.literal("activities"),
    userId: ColumnSchema,
    name: ColumnSchema,
    occurredAt: ColumnSchema,
    /** The activity's own id in the file: one activity per user and key, however often imported. */
    key: ColumnSchema.optional(),
    /** A JSON object per row. */
    properties: ColumnSchema.optional(),
  })
  .superRefine(
    distinctColumns((m) => [
      ["userId", m.userId],
      ["name", m.name],
      ["occurredAt", m.occurredAt],
      ["key", m.key],
      ["properties", m.properties],
    ]),
  );

/** How an uploaded file's columns become users, suppressions, opt-outs, devices or activities. */
export const ImportMappingSchema = z.discriminatedUnion(
  "kind",
  [UsersMappingSchema, SuppressionsMappingSchema, OptOutsMappingSchema, DevicesMappingSchema, ActivitiesMappingSchema],
  { error: (issue) => (issue.code === "invalid_union" ? "kind must be users, suppressions, opt_outs, devices or activities" : undefined) },
);
export type ImportMapping = z.infer<typeof ImportMappingSchema>;
export type UsersMapping = z.infer<typeof UsersMappingSchema>;
export type SuppressionsMapping = z.infer<typeof SuppressionsMappingSchema>;
export type OptOutsMapping = z.infer<typeof OptOutsMappingSchema>;
export type DevicesMapping = z.infer<typeof DevicesMappingSchema>;
export type ActivitiesMapping = z.infer<typeof ActivitiesMappingSchema>;

/** Every column a mapping reads, with where in the mapping it is named. */
function mappedColumns(mapping: ImportMapping): Array<{ column: number; path: string }> {
  const column = (source: { column: number } | { fixed: unknown }, path: string) => ("column" in source ? [{ column: source.column, path }] : []);
  switch (mapping.kind) {
    case "users":
      return [
        ...USER_FIELDS.flatMap((field) => {
          const index = mapping.fields[field];
          return index === undefined ? [] : [{ column: index, path: `fields.${field}` }];
        }),
        ...mapping.attributes.map((a, i) => ({ column: a.column, path: `attributes.${i}.column` })),
      ];
    case "suppressions":
      return [{ column: mapping.address, path: "address" }, ...column(mapping.channel, "channel.column")];
    case "opt_outs":
      return [{ column: mapping.userId, path: "userId" }, ...column(mapping.channel, "channel.column"), ...column(mapping.category, "category.column")];
    case "devices":
      return [{ column: mapping.userId, path: "userId" }, { column: mapping.token, path: "token" }, ...column(mapping.platform, "platform.column")];
    case "activities":
      return [
        { column: mapping.userId, path: "userId" },
        { column: mapping.name, path: "name" },
        { column: mapping.occurredAt, path: "occurredAt" },
        ...(mapping.key === undefined ? [] : [{ column: mapping.key, path: "key" }]),
        ...(mapping.properties === undefined ? [] : [{ column: mapping.properties, path: "properties" }]),
      ];
  }
}

/**
 * The column whose value a file may hold once (its first row owns it), and what a repeat is
 * called: a user's external id, a device's token. Null for kinds where repeats are harmless.
 */
export function uniqueColumn(mapping: ImportMapping): { column: number; label: string } | null {
  switch (mapping.kind) {
    case "users":
      return { column: mapping.fields.externalId, label: "external id" };
    case "devices":
      return { column: mapping.token, label: "token" };
    case "suppressions":
    case "opt_outs":
    case "activities":
      return null;
  }
}

/** Why a mapping cannot read this file (a column past the header's end), or null when it can. */
export function mappingProblem(mapping: ImportMapping, header: readonly string[]): string | null {
  const outside = mappedColumns(mapping).find((c) => c.column >= header.length);
  if (!outside) return null;
  return `${outside.path}: column ${outside.column + 1} does not exist; the file has ${header.length} column${header.length === 1 ? "" : "s"}`;
}
