import type { Channel } from "../channels/channels.ts";
import type { RenderScope } from "../content/inline-content.ts";
import { sanitizedHtmlToText } from "./html-to-text.ts";
import { renderLiquid, type LiquidMode } from "./liquid.ts";
import { resolveLocale } from "./locales.ts";
import { MAX_PUSH_PAYLOAD_BYTES } from "./push-payload-limit.ts";
import { sanitizeEmailHtml } from "./sanitize-email-html.ts";
import { MAX_SMS_SEGMENTS, smsSegments } from "./sms-segments.ts";
import { isHttpsUrl, isOneLine, isSafeDeepLink, MAX_EMAIL_HTML_BYTES, type EmailContent, type PushContent, type SmsContent, type TemplateBody } from "./template-content.ts";
import { utf8Bytes } from "./utf8-bytes.ts";

export type { RenderScope } from "../content/inline-content.ts";

export type TemplateProblemCode =
  | "syntax"
  | "unknown_variable"
  | "missing_variable"
  | "bad_example"
  | "missing_content"
  | "channel_not_supported"
  | "too_large"
  | "header_injection"
  | "render_error";

/** Why a template cannot be published or rendered, and where. */
export interface TemplateProblem {
  code: TemplateProblemCode;
  message: string;
  locale?: string;
  channel?: Channel;
  field?: string;
  variable?: string;
  line?: number;
  column?: number;
}

/** A push notification ready for FCM; `payloadBytes` is the size FCM will count. */
export interface RenderedPush {
  title: string;
  body: string;
  imageUrl?: string;
  deepLink?: string;
  data: Record<string, string>;
  payloadBytes: number;
}

/** An email ready to send: sanitized html with its preheader, and a text part. */
export interface RenderedEmail {
  subject: string;
  preheader?: string;
  html: string;
  text: string;
}

export interface RenderedSms {
  body: string;
  encoding: "GSM-7" | "UCS-2";
  segments: number;
}

export type RenderedChannel = { push: RenderedPush; email: RenderedEmail; sms: RenderedSms };

export type TemplateRenderResult<C extends Channel = Channel> =
  | { ok: true; locale: string; rendered: RenderedChannel[C] }
  | { ok: false; problem: TemplateProblem };

export interface RenderTemplateInput<C extends Channel> {
  body: TemplateBody;
  defaultLocale: string;
  channel: C;
  /** The user's locale; null or unknown falls back to the default. */
  locale?: string | null;
  scope: RenderScope;
}

// The payload is measured with an id of this length standing in for the notification's own.
const NOTIFICATION_ID_PLACEHOLDER = "n".repeat(20);

type Outcome<T> = { ok: true; value: T } | { ok: false; problem: TemplateProblem };
type Where = { locale: string; channel: Channel };

const HTML_ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** The value at a "data.a.b" or "user.x" path, reading own properties only. */
function valueAtPath(scope: RenderScope, path: string): unknown {
  const [root, ...keys] = path.split(".");
  let value: unknown = root === "user" ? scope.user : root === "data" ? scope.data : undefined;
  for (const key of keys) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

function fail<T>(where: Where, field: string, code: TemplateProblemCode, message: string, position: { line?: number; column?: number } = {}): Outcome<T> {
  return { ok: false, problem: { code, message: `${where.channel} ${field} (${where.locale}): ${message}`, ...where, field, ...position } };
}

function renderField(where: Where, field: string, source: string, mode: LiquidMode, scope: RenderScope): Outcome<string> {
  const result = renderLiquid(source, mode, scope);
  if (result.ok) return { ok: true, value: result.output };
  const code = result.kind === "syntax" ? "syntax" : result.kind === "too_large" ? "too_large" : "render_error";
  return fail(where, field, code, result.message, { line: result.line, column: result.column });
}

// Subjects, preheaders and titles become headers (or header-like fields): a line break from
// data must never start a new header.
function headerLine(where: Where, field: string, source: string, scope: RenderScope): Outcome<string> {
  const rendered = renderField(where, field, source, "text", scope);
  if (rendered.ok && !isOneLine(rendered.value)) {
    return fail(where, field, "header_injection", "renders with a line break or control character; header fields must stay on one line");
  }
  return rendered;
}

function withPreheader(html: string, preheader: string): string {
  const hidden = `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${escapeHtml(preheader)}</div>`;
  const body = /<body\b[^>]*>/i.exec(html) ?? /^\s*<!doctype[^>]*>/i.exec(html);
  const at = body === null ? 0 : body.index + body[0].length;
  return html.slice(0, at) + hidden + html.slice(at);
}

function renderEmail(where: Where, content: EmailContent, scope: RenderScope): Outcome<RenderedEmail> {
  const subject = headerLine(where, "subject", content.subject, scope);
  if (!subject.ok) return subject;
  let preheader: string | undefined;
  if (content.preheader) {
    const rendered = headerLine(where, "preheader", content.preheader, scope);
    if (!rendered.ok) return rendered;
    preheader = rendered.value.trim() || undefined;
  }
  const rendered = renderField(where, "html", content.html, "html", scope);
  if (!rendered.ok) return rendered;
  const html = sanitizeEmailHtml(preheader === undefined ? rendered.value : withPreheader(rendered.value, preheader));
  const bytes = utf8Bytes(html);
  if (bytes > MAX_EMAIL_HTML_BYTES) {
    return fail(where, "html", "too_large", `renders to ${bytes} bytes; email html may be at most 512 KiB (${MAX_EMAIL_HTML_BYTES} bytes)`);
  }
  let text = "";
  if (content.text?.trim()) {
    const renderedText = renderField(where, "text", content.text, "text", scope);
    if (!renderedText.ok) return renderedText;
    text = renderedText.value.trim();
  }
  return { ok: true, value: { subject: subject.value, ...(preheader === undefined ? {} : { preheader }), html, text: text || sanitizedHtmlToText(html) } };
}

function renderPush(where: Where, content: PushContent, scope: RenderScope): Outcome<RenderedPush> {
  const title = headerLine(where, "title", content.title, scope);
  if (!title.ok) return title;
  const body = renderField(where, "body", content.body, "text", scope);
  if (!body.ok) return body;

  let imageUrl: string | undefined;
  if (content.imageUrl) {
    const rendered = renderField(where, "imageUrl", content.imageUrl, "text", scope);
    if (!rendered.ok) return rendered;
    imageUrl = rendered.value.trim() || undefined;
    if (imageUrl !== undefined && !isHttpsUrl(imageUrl)) return fail(where, "imageUrl", "render_error", `renders to ${JSON.stringify(imageUrl.slice(0, 200))}, which is not an https URL`);
  }
  let deepLink: string | undefined;
  if (content.deepLink) {
    const rendered = renderField(where, "deepLink", content.deepLink, "text", scope);
    if (!rendered.ok) return rendered;
    deepLink = rendered.value.trim() || undefined;
    if (deepLink !== undefined && !(isOneLine(deepLink) && isSafeDeepLink(deepLink))) {
      return fail(where, "deepLink", "render_error", `renders to ${JSON.stringify(deepLink.slice(0, 200))}, which is not a one-line link without a javascript:, vbscript: or data: scheme`);
    }
  }
  const data: Record<string, string> = {};
  for (const [key, source] of Object.entries(content.data ?? {})) {
    const rendered = renderField(where, `data.${key}`, source, "text", scope);
    if (!rendered.ok) return rendered;
    data[key] = rendered.value;
  }

  const payload = {
    notification: { title: title.value, body: body.value, ...(imageUrl === undefined ? {} : { image: imageUrl }) },
    data: { ...data, ...(deepLink === undefined ? {} : { deep_link: deepLink }), notification_id: NOTIFICATION_ID_PLACEHOLDER },
  };
  const payloadBytes = utf8Bytes(JSON.stringify(payload));
  if (payloadBytes > MAX_PUSH_PAYLOAD_BYTES) {
    return fail(where, "payload", "too_large", `renders to a ${payloadBytes}-byte payload; FCM accepts at most 4 KiB (${MAX_PUSH_PAYLOAD_BYTES} bytes)`);
  }
  const rendered: RenderedPush = { title: title.value, body: body.value, data, payloadBytes };
  if (imageUrl !== undefined) rendered.imageUrl = imageUrl;
  if (deepLink !== undefined) rendered.deepLink = deepLink;
  return { ok: true, value: rendered };
}

function renderSms(where: Where, content: SmsContent, scope: RenderScope): Outcome<RenderedSms> {
  const body = renderField(where, "body", content.body, "text", scope);
  if (!body.ok) return body;
  const { encoding, segments } = smsSegments(body.value);
  if (segments > MAX_SMS_SEGMENTS) {
    return fail(where, "body", "too_large", `renders to ${segments} ${encoding} segments; an SMS may be at most ${MAX_SMS_SEGMENTS}`);
  }
  return { ok: true, value: { body: body.value, encoding, segments } };
}

/**
 * Renders one channel of a template version for one user: the locale is the user's (or its
 * nearest fallback) among those with content for the channel, every required variable must be
 * present, and the result is checked against what the channel's provider accepts. Used for
 * sends and previews alike, so a preview shows exactly what would go out.
 */
export function renderTemplate<C extends Channel>(input: RenderTemplateInput<C>): TemplateRenderResult<C> {
  const { body, channel, scope } = input;
  const withChannel = Object.keys(body.content).filter((locale) => body.content[locale]?.[channel] !== undefined);
  const locale = resolveLocale(input.locale, withChannel, input.defaultLocale);
  const content = locale === null ? undefined : body.content[locale];
  if (locale === null || content === undefined) {
    const asked = input.locale ? `"${input.locale}" or ` : "";
    return { ok: false, problem: { code: "missing_content", channel, message: `no ${channel} content for ${asked}the default locale "${input.defaultLocale}"` } };
  }
  for (const variable of body.variables) {
    if (variable.required && isAbsent(valueAtPath(scope, variable.name))) {
      return { ok: false, problem: { code: "missing_variable", variable: variable.name, message: `required variable ${variable.name} is missing or empty` } };
    }
  }
  const where = { locale, channel };
  // Each branch reads the content of the channel it was asked for.
  const outcome =
    channel === "push"
      ? renderPush(where, content.push as PushContent, scope)
      : channel === "email"
        ? renderEmail(where, content.email as EmailContent, scope)
        : renderSms(where, content.sms as SmsContent, scope);
  if (!outcome.ok) return outcome;
  return { ok: true, locale, rendered: outcome.value as RenderedChannel[C] };
}
