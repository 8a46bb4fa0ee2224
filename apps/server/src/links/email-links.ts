import { findCategoryFlags, type CategoryFlags, type ClaimedNotification, type Sql } from "@herald/db";
import type { OutboundMessage } from "../providers/provider.ts";
import { isHttpUrl, type LinkTokens } from "./link-tokens.ts";
import { addOpenPixel, rewriteLinks } from "./tracked-html.ts";

/** What decorating an email needs of its notification. */
export type LinkedNotification = Pick<ClaimedNotification, "id" | "userId" | "category" | "channel">;

/** Adds the List-Unsubscribe headers and the tracking rewrites to one rendered message. */
export type EmailDecorator = (n: LinkedNotification, message: OutboundMessage) => OutboundMessage;

export interface EmailLinkSigning {
  tokens: LinkTokens;
  publicUrl: URL;
}

/** Longer destinations are left as they are rather than minted into an unwieldy click token. */
const MAX_TRACKED_URL = 2048;

/** An absolute URL under Herald's public URL, which may carry a path prefix. */
export function publicLink(publicUrl: URL, path: string): string {
  const base = publicUrl.href.endsWith("/") ? publicUrl.href : `${publicUrl.href}/`;
  return new URL(path, base).href;
}

/**
 * One email's links, as its category says: a one-click List-Unsubscribe (RFC 8058, https or http
 * URL only, no mailto) unless the category is mandatory; an open pixel and click rewrites only
 * when the category opts in. Other channels, and messages of unknown categories, pass unchanged.
 */
export function decorateEmail(
  message: OutboundMessage,
  n: LinkedNotification,
  flags: CategoryFlags | undefined,
  { tokens, publicUrl }: EmailLinkSigning,
): OutboundMessage {
  if (n.channel !== "email" || !flags) return message;
  const decorated: OutboundMessage = { ...message };
  if (!flags.mandatory && n.userId !== null) {
    const token = tokens.sign("unsubscribe", { n: n.id, u: n.userId, c: n.category, ch: "email" });
    decorated.headers = {
      ...message.headers,
      "List-Unsubscribe": `<${publicLink(publicUrl, `u/${token}`)}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    };
  }
  if (decorated.html !== undefined && flags.tracking.clicks) {
    const own = [publicLink(publicUrl, "u/"), publicLink(publicUrl, "t/")];
    decorated.html = rewriteLinks(decorated.html, (url) =>
      isHttpUrl(url) && url.length <= MAX_TRACKED_URL && !own.some((prefix) => url.startsWith(prefix))
        ? publicLink(publicUrl, `t/c/${tokens.sign("click", { n: n.id, url })}`)
        : null,
    );
  }
  if (decorated.html !== undefined && flags.tracking.opens) {
    decorated.html = addOpenPixel(decorated.html, publicLink(publicUrl, `t/o/${tokens.sign("open", { n: n.id })}.gif`));
  }
  return decorated;
}

/** Per dispatch batch: the categories' flags, looked up once, then a synchronous decorator. */
export interface EmailLinks {
  forBatch(notifications: ReadonlyArray<Pick<ClaimedNotification, "category">>): Promise<EmailDecorator>;
}

export interface EmailLinksOptions {
  sql: Sql;
  /** null when links are off (production without HERALD_SECRET_KEY): emails pass unchanged. */
  tokens: LinkTokens | null;
  publicUrl: URL;
  /** How long a category's flags are trusted: a change in the dashboard applies within it. */
  cacheMs?: number;
  now?: () => number;
}

const passThrough: EmailDecorator = (_n, message) => message;

export function createEmailLinks({ sql, tokens, publicUrl, cacheMs = 30_000, now = Date.now }: EmailLinksOptions): EmailLinks {
  const cache = new Map<string, { flags: CategoryFlags | undefined; at: number }>();
  return {
    async forBatch(notifications) {
      if (!tokens) return passThrough;
      const keys = [...new Set(notifications.map((n) => n.category))];
      const stale = keys.filter((key) => now() - (cache.get(key)?.at ?? -Infinity) >= cacheMs);
      if (stale.length > 0) {
        const found = await findCategoryFlags(sql, stale);
        for (const key of stale) cache.set(key, { flags: found.get(key), at: now() });
      }
      const signing = { tokens, publicUrl };
      return (n, message) => decorateEmail(message, n, cache.get(n.category)?.flags, signing);
    },
  };
}
