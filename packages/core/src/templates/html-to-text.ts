import sanitizeHtml from "sanitize-html";

// @types/sanitize-html (2.16) has not caught up with options sanitize-html 2.18 reads.
type SanitizeOptions = sanitizeHtml.IOptions & { allowedEmptyAttributes: string[] };

// Elements whose text a reader never sees: metadata, code, and anything hidden (preheaders).
const UNSEEN = new Set(["head", "title", "style", "script", "noscript", "template", "svg", "math", "iframe", "object", "select", "option", "textarea"]);
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden|mso-hide\s*:\s*all/i;

const PARAGRAPHS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "blockquote", "pre", "dl", "section", "article", "header", "footer", "figure", "address"]);
const LINES = new Set(["div", "tr", "br", "hr", "li", "dt", "dd", "center", "caption", "main", "nav", "aside", "figcaption"]);
const CELLS = new Set(["td", "th"]);

// First pass: sanitize-html's parser turns any HTML into a regular form (every tag closed or
// self-closed, attributes double-quoted, text with only &amp; &lt; &gt; &quot; escaped). The
// second pass reads it with one regular expression, skipping what a reader never sees.
const NORMALISE: SanitizeOptions = {
  allowedTags: false,
  allowedAttributes: { a: ["href"], "*": ["style", "hidden"] },
  allowedEmptyAttributes: ["hidden"],
  allowVulnerableTags: true,
  parseStyleAttributes: false,
};
const TOKEN = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)([^>]*)>|([^<]+)/g;
const HREF = /\bhref="([^"]*)"/;
const STYLE = /\bstyle="([^"]*)"/;
const HIDDEN_ATTRIBUTE = /(^|\s)hidden(="[^"]*")?(\s|\/|$)/;
const DOCTYPE = /^\s*<!doctype[^>]*>/i;

function unseen(name: string, attributes: string): boolean {
  return UNSEEN.has(name) || HIDDEN_ATTRIBUTE.test(attributes) || HIDDEN_STYLE.test(STYLE.exec(attributes)?.[1] ?? "");
}

function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot);/g, (_entity, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"' })[name] ?? "");
}

/**
 * The plain-text version of an email's HTML: hidden parts dropped, blocks on their own lines,
 * list items as "- item", links as "label (url)", entities decoded, whitespace collapsed.
 */
export function htmlToText(html: string): string {
  return textOfRegularHtml(sanitizeHtml(html, NORMALISE));
}

/**
 * The same for HTML that `sanitizeEmailHtml` produced, which is already in the regular form the
 * tokenizer reads: it skips a second parse, the larger part of the cost at send time.
 */
export function sanitizedHtmlToText(html: string): string {
  return textOfRegularHtml(html.replace(DOCTYPE, ""));
}

function textOfRegularHtml(normalised: string): string {
  let out = "";
  // Breaks are held until the next visible text, so "</li><li>" or "</p>  <p>" give one break, not two.
  let pendingBreaks = 0;
  const breakAtLeast = (count: number) => {
    pendingBreaks = Math.max(pendingBreaks, count);
  };
  const write = (text: string) => {
    if (pendingBreaks > 0 && out !== "") out = out.trimEnd() + "\n".repeat(pendingBreaks);
    pendingBreaks = 0;
    out += text;
  };
  const links: { href: string; start: number }[] = [];

  // An unseen element being skipped, and how deep inside nested ones of the same name.
  let skipping: { name: string; depth: number } | null = null;

  for (const [, closing, rawName, attributes = "", text] of normalised.matchAll(TOKEN)) {
    if (skipping !== null) {
      if (text === undefined && (rawName ?? "").toLowerCase() === skipping.name && !attributes.endsWith("/")) {
        skipping.depth += closing ? -1 : 1;
        if (skipping.depth === 0) skipping = null;
      }
      continue;
    }
    if (text === undefined && !closing && !attributes.endsWith("/") && unseen((rawName ?? "").toLowerCase(), attributes)) {
      skipping = { name: (rawName ?? "").toLowerCase(), depth: 1 };
      continue;
    }
    if (text !== undefined) {
      const collapsed = decode(text).replace(/[\s\u00a0]+/g, " ");
      if (collapsed !== " " || pendingBreaks === 0) write(collapsed);
      continue;
    }
    const name = (rawName ?? "").toLowerCase();
    if (PARAGRAPHS.has(name)) breakAtLeast(2);
    else if (name === "li" && !closing) {
      breakAtLeast(1);
      write("- ");
    } else if (LINES.has(name)) breakAtLeast(1);
    else if (CELLS.has(name) && closing && pendingBreaks === 0) out += " ";
    else if (name === "a" && !closing) links.push({ href: decode(HREF.exec(attributes)?.[1] ?? ""), start: out.length });
    else if (name === "a" && closing) {
      const link = links.pop();
      if (link === undefined || link.href === "") continue;
      const label = out.slice(link.start).trim();
      if (label === "") write(link.href);
      else if (label !== link.href && `mailto:${label}` !== link.href && `tel:${label}` !== link.href) write(` (${link.href})`);
    }
  }
  return out
    .split("\n")
    .map((line) => line.replace(/ {2,}/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
