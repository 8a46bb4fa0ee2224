import { InlineContentSchema, renderFailedReason, renderInlineContent, type Channel } from "@herald/core";
import type { ClaimedNotification, GateVerdict } from "@herald/db";
import type { EmailDecorator } from "../links/email-links.ts";
import type { OutboundMessage } from "../providers/provider.ts";

export type RenderOutcome = { ok: true; message: OutboundMessage; rendered: Record<string, unknown> } | { ok: false; reason: string };

/**
 * Renders a claimed notification for its channel. A missing variable dead-letters it with
 * render_failed:<variable> rather than sending "Hello ,". `decorate` adds an email's
 * List-Unsubscribe headers and tracking links; `rendered` (what the timeline shows) stays without them.
 */
export function renderMessage(n: ClaimedNotification, verdict: GateVerdict, decorate?: EmailDecorator): RenderOutcome {
  if (n.templateKey) return { ok: false, reason: renderFailedReason("template") };
  const content = InlineContentSchema.safeParse(n.content);
  if (!content.success) return { ok: false, reason: "invalid_payload" };
  const user = { id: n.externalUserId, email: n.user?.email, phone: n.user?.phone, locale: n.user?.locale, ...n.user?.attributes };
  const result = renderInlineContent(content.data, { user, data: n.vars });
  if (!result.ok) return { ok: false, reason: renderFailedReason(result.missingVariable) };
  const r = result.rendered;
  const channel = n.channel as Channel;
  const message: OutboundMessage = {
    notificationId: n.id,
    channel,
    lane: n.lane,
    to: channel === "push" ? (n.externalUserId ?? "") : (verdict.address ?? ""),
    body: r.body,
    data: { notification_id: n.id, type: n.type },
    ...(channel === "push" && verdict.tokens ? { tokens: verdict.tokens } : {}),
    ...(r.subject !== undefined ? { subject: r.subject } : channel === "email" && r.title !== undefined ? { subject: r.title } : {}),
    ...(r.title !== undefined ? { title: r.title } : {}),
    ...(r.html !== undefined ? { html: r.html } : {}),
  };
  return { ok: true, message: decorate ? decorate(n, message) : message, rendered: { ...r } };
}
