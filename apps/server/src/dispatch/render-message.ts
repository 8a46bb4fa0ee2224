import {
  InlineContentSchema,
  renderFailedReason,
  renderInlineContent,
  renderTemplate,
  sanitizeEmailHtml,
  type Channel,
  type RenderScope,
  type TemplateProblem,
} from "@herald/core";
import type { ClaimedNotification, GateVerdict } from "@herald/db";
import type { EmailDecorator } from "../links/email-links.ts";
import type { OutboundMessage } from "../providers/provider.ts";
import type { TemplateLookup } from "./template-store.ts";

export type RenderOutcome =
  | { ok: true; message: OutboundMessage; rendered: Record<string, unknown> }
  | { ok: false; reason: string; error?: string };

/** How much of an email's text part a notification row keeps. */
const RENDERED_TEXT_CHARS = 4_000;

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The dead-letter reason for a template that cannot render: the missing variable's name
 * (`render_failed:data.order_id`, so support sees what the caller forgot), else what went wrong
 * (`render_failed:too_large`). Variable names always hold a dot; problem codes never do.
 */
export function templateFailureReason(problem: TemplateProblem): string {
  return renderFailedReason(problem.code === "missing_variable" && problem.variable ? problem.variable : problem.code);
}

/** What templates read as `user`: the profile's fields, then its attributes. */
export function userScope(n: Pick<ClaimedNotification, "externalUserId" | "user">): Record<string, unknown> {
  return { ...n.user?.attributes, id: n.externalUserId, email: n.user?.email, phone: n.user?.phone, locale: n.user?.locale };
}

/**
 * Renders a claimed notification for its channel: its pinned template version when it has one,
 * else its inline content. A missing variable dead-letters it with render_failed:<variable> rather
 * than sending "Hello ,". `decorate` adds an email's List-Unsubscribe headers and tracking links;
 * `rendered` (what the timeline shows) stays without them.
 */
export function renderMessage(n: ClaimedNotification, verdict: GateVerdict, templates: TemplateLookup, decorate?: EmailDecorator): RenderOutcome {
  const channel = n.channel as Channel;
  const scope: RenderScope = { user: userScope(n), data: n.vars };
  const base = {
    notificationId: n.id,
    channel,
    lane: n.lane,
    to: channel === "push" ? (n.externalUserId ?? "") : (verdict.address ?? ""),
    ...(channel === "push" && verdict.tokens ? { tokens: verdict.tokens } : {}),
  };
  const envelope = { notification_id: n.id, type: n.type };
  let message: OutboundMessage;
  let rendered: Record<string, unknown>;

  if (n.templateKey) {
    const pinned = n.templateVersion === null ? undefined : templates(n.templateKey, n.templateVersion);
    if (!pinned) return { ok: false, reason: renderFailedReason("template"), error: `template ${n.templateKey} version ${n.templateVersion ?? "(none)"} is not available` };
    const result = renderTemplate({ body: pinned.body, defaultLocale: pinned.defaultLocale, channel, locale: n.locale, scope });
    if (!result.ok) return { ok: false, reason: templateFailureReason(result.problem), error: result.problem.message };
    const r = result.rendered;
    const pin = { locale: result.locale, template: n.templateKey, version: n.templateVersion };
    rendered = { ...r, ...pin };
    if ("subject" in r) {
      // The HTML is left out of the timeline's copy: it can be large, and the pinned version
      // re-renders it; subject, preheader and text say what was sent.
      rendered = { subject: r.subject, ...(r.preheader ? { preheader: r.preheader } : {}), text: truncate(r.text, RENDERED_TEXT_CHARS), ...pin };
      message = { ...base, subject: r.subject, body: r.text, html: r.html, data: envelope };
    } else if ("title" in r) {
      message = {
        ...base,
        title: r.title,
        body: r.body,
        data: { ...r.data, ...envelope },
        ...(r.imageUrl ? { imageUrl: r.imageUrl } : {}),
        ...(r.deepLink ? { deepLink: r.deepLink } : {}),
      };
    } else {
      message = { ...base, body: r.body, data: envelope };
    }
  } else {
    const content = InlineContentSchema.safeParse(n.content);
    if (!content.success) return { ok: false, reason: "invalid_payload" };
    const result = renderInlineContent(content.data, scope);
    if (!result.ok) return { ok: false, reason: renderFailedReason(result.missingVariable) };
    const r = result.rendered;
    // Inline HTML goes through the same sanitiser as a template's: no script reaches an inbox.
    const html = r.html === undefined ? undefined : sanitizeEmailHtml(r.html);
    rendered = { ...r, ...(html === undefined ? {} : { html }) };
    message = {
      ...base,
      body: r.body,
      data: envelope,
      ...(r.subject !== undefined ? { subject: r.subject } : channel === "email" && r.title !== undefined ? { subject: r.title } : {}),
      ...(r.title !== undefined ? { title: r.title } : {}),
      ...(html !== undefined ? { html } : {}),
    };
  }
  return { ok: true, message: decorate ? decorate(n, message) : message, rendered };
}
