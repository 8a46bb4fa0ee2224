import { z } from "zod";
import { ChannelSchema } from "../channels/channels.ts";
import { CategoryKeySchema } from "../config/categories.ts";
import { TemplateKeySchema } from "../config/notification-types.ts";
import { hasControlCharacters, plainText } from "../validation/text.ts";
import { canonicalLocale, LocaleTagSchema } from "./locales.ts";
import { TemplateVariablesSchema } from "./template-variables.ts";
import { utf8Bytes } from "./utf8-bytes.ts";

export const MAX_EMAIL_HTML_BYTES = 512 * 1024;
export const MAX_EMAIL_TEXT_BYTES = 256 * 1024;
export const MAX_TEMPLATE_LOCALES = 50;
export const MAX_PUSH_DATA_KEYS = 20;
const MAX_URL_LENGTH = 2048;

const PUSH_DATA_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
// Herald's own keys, then FCM's: FCM refuses "from", "message_type", "collapse_key" and any
// key starting with "google" or "gcm".
const RESERVED_PUSH_DATA_KEYS = new Set(["notification_id", "deep_link", "from", "message_type", "collapse_key"]);
const RESERVED_PUSH_DATA_PREFIX = /^(google|gcm)/i;
const UNSAFE_LINK_SCHEME = /^(javascript|vbscript|data):/i;

/** Whether a field's source holds Liquid, so it can only be judged once rendered. */
function containsLiquid(source: string): boolean {
  return source.includes("{{") || source.includes("{%");
}

/** One line: no line break and no control character. */
export function isOneLine(value: string): boolean {
  return !/[\r\n]/.test(value) && !hasControlCharacters(value);
}

/** An absolute https URL. */
export function isHttpsUrl(value: string): boolean {
  return URL.canParse(value) && new URL(value).protocol === "https:";
}

/** A deep link may use any app scheme, but never one that runs code or inlines content. */
export function isSafeDeepLink(value: string): boolean {
  // Browsers ignore whitespace and controls inside a scheme, so "java\tscript:" must count too.
  return !UNSAFE_LINK_SCHEME.test(value.replace(/[\u0000-\u0020]/g, ""));
}

const oneLine = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine(isOneLine, "must be one line without control characters");

// Fields may be empty in a draft (a half-written template still saves); the publish check
// (checkTemplate) refuses an empty subject, title, body or html.
const multiline = (max: number) =>
  z.string().max(max, `must be at most ${max} characters`).refine(
    (s) => !hasControlCharacters(s),
    "must not contain control characters",
  );

const utf8Limited = (maxBytes: number) =>
  z
    .string()
    .refine((s) => s.length <= maxBytes && utf8Bytes(s) <= maxBytes, `must be at most ${maxBytes / 1024} KiB (${maxBytes} bytes) of UTF-8`)
    .refine((s) => !hasControlCharacters(s), "must not contain control characters");

// Empty URL fields are allowed and mean "none", the way a cleared form field arrives.
const ImageUrlSchema = oneLine(MAX_URL_LENGTH).refine(
  (s) => s === "" || containsLiquid(s) || isHttpsUrl(s),
  "must be an https URL, or Liquid that renders one",
);
const DeepLinkSchema = oneLine(MAX_URL_LENGTH).refine(isSafeDeepLink, "must not be a javascript:, vbscript: or data: link");

const PushDataSchema = z
  .record(z.string(), z.string().max(4000, "must be at most 4000 characters: a push payload is at most 4 KiB").refine((s) => !hasControlCharacters(s), "must not contain control characters"))
  .superRefine((data, ctx) => {
    const keys = Object.keys(data);
    if (keys.length > MAX_PUSH_DATA_KEYS) ctx.addIssue({ code: "custom", message: `must have at most ${MAX_PUSH_DATA_KEYS} keys, not ${keys.length}` });
    for (const key of keys) {
      if (!PUSH_DATA_KEY.test(key)) {
        ctx.addIssue({ code: "custom", path: [key], message: `${JSON.stringify(key)} is not a data key: use a letter or "_", then up to 63 letters, digits or "_"` });
      } else if (RESERVED_PUSH_DATA_KEYS.has(key) || RESERVED_PUSH_DATA_PREFIX.test(key)) {
        ctx.addIssue({ code: "custom", path: [key], message: `${JSON.stringify(key)} is reserved by Herald or FCM: choose another data key` });
      }
    }
  });

/** A push notification's source: every string may hold Liquid. */
export const PushContentSchema = z.strictObject({
  title: oneLine(300),
  body: multiline(4000),
  imageUrl: ImageUrlSchema.optional(),
  deepLink: DeepLinkSchema.optional(),
  data: PushDataSchema.optional(),
});
export type PushContent = z.infer<typeof PushContentSchema>;

/** An email's source; `text` is generated from `html` when empty or absent. */
export const EmailContentSchema = z.strictObject({
  subject: oneLine(998),
  preheader: oneLine(500).optional(),
  html: utf8Limited(MAX_EMAIL_HTML_BYTES),
  text: utf8Limited(MAX_EMAIL_TEXT_BYTES).optional(),
});
export type EmailContent = z.infer<typeof EmailContentSchema>;

/** An SMS's source. */
export const SmsContentSchema = z.strictObject({ body: multiline(1600) });
export type SmsContent = z.infer<typeof SmsContentSchema>;

/** One locale's content, for at least one channel. */
export const LocaleContentSchema = z
  .strictObject({ push: PushContentSchema.optional(), email: EmailContentSchema.optional(), sms: SmsContentSchema.optional() })
  .refine((c) => c.push !== undefined || c.email !== undefined || c.sms !== undefined, "must have content for at least one channel: push, email or sms");
export type LocaleContent = z.infer<typeof LocaleContentSchema>;

/** Content by locale; keys come out canonical ("pt_BR" → "pt-BR"). */
export const TemplateContentSchema = z
  .record(z.string(), z.unknown())
  .superRefine((content, ctx) => {
    const keys = Object.keys(content);
    if (keys.length > MAX_TEMPLATE_LOCALES) {
      ctx.addIssue({ code: "custom", message: `must have at most ${MAX_TEMPLATE_LOCALES} locales, not ${keys.length}` });
    }
    const seen = new Map<string, string>();
    for (const key of keys) {
      const canonical = canonicalLocale(key);
      if (canonical === null) continue;
      const earlier = seen.get(canonical);
      if (earlier !== undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `${JSON.stringify(key)} and ${JSON.stringify(earlier)} are the same locale, ${canonical}: keep one` });
      }
      seen.set(canonical, key);
    }
  })
  // The key schema's own message ("… is not a known locale tag") beats zod's "Invalid key in record".
  .pipe(z.record(LocaleTagSchema, LocaleContentSchema, { error: (issue) => (issue.code === "invalid_key" ? issue.issues[0]?.message : undefined) }));
export type TemplateContent = z.infer<typeof TemplateContentSchema>;

/** What a template version holds: its variable schema and its content. */
export const TemplateBodySchema = z.strictObject({ variables: TemplateVariablesSchema, content: TemplateContentSchema });
export type TemplateBody = z.infer<typeof TemplateBodySchema>;

/** A template's settings, shared by all its versions. */
export const TemplateMetaSchema = z.strictObject({
  key: TemplateKeySchema,
  name: plainText(200),
  channels: z
    .array(ChannelSchema)
    .min(1, "must list at least one channel")
    .superRefine((channels, ctx) => {
      channels.forEach((channel, index) => {
        if (channels.indexOf(channel) !== index) ctx.addIssue({ code: "custom", path: [index], message: `channel "${channel}" is listed twice` });
      });
    }),
  defaultCategory: CategoryKeySchema.nullable(),
  defaultLocale: LocaleTagSchema,
});
export type TemplateMeta = z.infer<typeof TemplateMetaSchema>;
