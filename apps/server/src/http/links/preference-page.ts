import type { QuietHoursWindow } from "@herald/db";

type Channel = "push" | "email" | "sms";

const CHANNELS: readonly Channel[] = ["push", "email", "sms"];
const CHANNEL_LABEL: Record<Channel, string> = { push: "Push", email: "Email", sms: "SMS" };
const CHANNEL_NOUN: Record<Channel, string> = { push: "push notifications", email: "emails", sms: "text messages" };

/** One category's row on the page: its state on each channel. */
export interface PreferenceRow {
  key: string;
  label: string;
  mandatory: boolean;
  enabled: Record<Channel, boolean>;
}

export interface PreferencePageModel {
  workspace: string;
  /** The category and channel of the email the link came in. */
  linked: { category: string; channel: Channel };
  rows: PreferenceRow[];
  quietHours: QuietHoursWindow[];
  /** A line confirming what a POST did (or did not) change. */
  notice: string | null;
}

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

// Inline CSS only (the app's CSP allows inline styles, nothing external); no script at all.
const STYLE = `
  body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; background: #f6f8fa; margin: 0; }
  main { max-width: 42rem; margin: 2rem auto; padding: 1.5rem 2rem; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; }
  h1 { font-size: 1.35rem; margin: 0 0 1rem; } h2 { font-size: 1.05rem; margin: 1.75rem 0 .5rem; }
  .notice { padding: .75rem 1rem; background: #ddf4ff; border: 1px solid #54aeff; border-radius: 6px; margin-bottom: 1rem; }
  .linked { padding: 1rem; background: #f6f8fa; border-radius: 6px; }
  table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .5rem .25rem; border-bottom: 1px solid #eaeef2; vertical-align: middle; }
  th[scope=col] { font-weight: 600; font-size: .875rem; color: #59636e; }
  form { display: inline; margin: 0; } button { font: inherit; font-size: .875rem; padding: .25rem .75rem; border-radius: 6px; border: 1px solid #d0d7de; background: #f6f8fa; cursor: pointer; }
  button.primary { background: #cf222e; border-color: #cf222e; color: #fff; padding: .4rem 1rem; font-size: 1rem; }
  .on { color: #1a7f37; font-weight: 600; } .off { color: #59636e; } .always { color: #59636e; font-style: italic; }
  .muted { color: #59636e; font-size: .875rem; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

// No action attribute: each form posts back to the page's own URL (its token), whatever path
// prefix a proxy put in front of Herald.
function button(fields: Record<string, string>, label: string, options: { primary?: boolean; describedAs?: string } = {}): string {
  const hidden = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  const primary = options.primary ? ' class="primary"' : "";
  const described = options.describedAs ? ` aria-label="${escapeHtml(options.describedAs)}"` : "";
  return `<form method="post">${hidden}<button type="submit"${primary}${described}>${escapeHtml(label)}</button></form>`;
}

function linkedSection(model: PreferencePageModel): string {
  const { category, channel } = model.linked;
  const row = model.rows.find((r) => r.key === category);
  const label = row?.label ?? category;
  const what = `${escapeHtml(label)} ${CHANNEL_NOUN[channel]}`;
  if (!row) return `<p class="linked">The messages this link came with are no longer sent.</p>`;
  if (row.mandatory) {
    return `<p class="linked">${what} are always sent: ${escapeHtml(label.toLowerCase())} messages can't be switched off.</p>`;
  }
  return row.enabled[channel]
    ? `<div class="linked"><p>You're receiving ${what}.</p>${button({ action: "unsubscribe" }, `Unsubscribe from ${label} ${CHANNEL_NOUN[channel]}`, { primary: true })}</div>`
    : `<div class="linked"><p>You're unsubscribed from ${what}.</p>${button({ action: "resubscribe" }, "Resubscribe")}</div>`;
}

function matrix(rows: PreferenceRow[]): string {
  const head = `<tr><th scope="col">Category</th>${CHANNELS.map((c) => `<th scope="col">${CHANNEL_LABEL[c]}</th>`).join("")}</tr>`;
  const body = rows
    .map((row) => {
      const cells = CHANNELS.map((channel) => {
        if (row.mandatory) return `<td><span class="always">Always sent</span></td>`;
        const on = row.enabled[channel];
        const state = on ? `<span class="on">On</span>` : `<span class="off">Off</span>`;
        const verb = on ? "Turn off" : "Turn on";
        const toggle = button({ action: "set", category: row.key, channel, enabled: on ? "false" : "true" }, verb, {
          describedAs: `${verb} ${row.label} ${CHANNEL_NOUN[channel]}`,
        });
        return `<td>${state} ${toggle}</td>`;
      }).join("");
      const note = row.mandatory ? `<br><span class="muted">Always sent: ${escapeHtml(row.label.toLowerCase())} messages can't be switched off.</span>` : "";
      return `<tr><th scope="row">${escapeHtml(row.label)}${note}</th>${cells}</tr>`;
    })
    .join("");
  return `<table>${head}${body}</table>`;
}

function quietHours(windows: QuietHoursWindow[], rows: PreferenceRow[]): string {
  if (windows.length === 0) return `<p class="muted">No quiet hours are set: messages may arrive at any time of day.</p>`;
  const label = (key: string) => rows.find((r) => r.key === key)?.label ?? key;
  const items = windows.map((w) => {
    const scope =
      w.category === "*" && w.channel === "*"
        ? "Every message"
        : `${w.category === "*" ? "Every category" : escapeHtml(label(w.category))}${w.channel === "*" ? "" : ` by ${CHANNEL_LABEL[w.channel as Channel] ?? escapeHtml(w.channel)}`}`;
    return `<li>${scope}: ${escapeHtml(w.start)}–${escapeHtml(w.end)}${w.timezone ? ` (${escapeHtml(w.timezone)})` : ""}</li>`;
  });
  return `<ul>${items.join("")}</ul><p class="muted">Non-urgent messages wait until quiet hours end. Critical ones are sent at once.</p>`;
}

/** The preference centre an unsubscribe link opens: read-only until one of its forms is posted. */
export function preferencePage(model: PreferencePageModel): string {
  const title = `${model.workspace}: notification preferences`;
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
${model.notice ? `<p class="notice" role="status">${escapeHtml(model.notice)}</p>` : ""}
${linkedSection(model)}
<h2>Everything you receive</h2>
${matrix(model.rows)}
<h2>Quiet hours</h2>
${quietHours(model.quietHours, model.rows)}`,
  );
}

/** A page with one message: a dead link, a form that was not understood. */
export function messagePage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
