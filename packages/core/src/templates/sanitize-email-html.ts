import sanitizeHtml from "sanitize-html";

// @types/sanitize-html (2.16) has not caught up with options sanitize-html 2.18 reads.
type SanitizeOptions = sanitizeHtml.IOptions & { allowedEmptyAttributes: string[] };

const DOCUMENT = ["html", "head", "body", "meta", "title", "style"];
const TABLES = ["table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "col", "colgroup"];
const BLOCKS = ["div", "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "center", "ul", "ol", "li", "dl", "dt", "dd"];
const SECTIONS = ["section", "article", "header", "footer", "main", "nav", "aside", "figure", "figcaption", "address"];
const INLINE = ["a", "img", "span", "font", "b", "strong", "i", "em", "u", "s", "strike", "small", "big", "sub", "sup", "code", "abbr", "cite", "q", "mark", "del", "ins", "wbr"];

// The presentational attributes email layouts still rely on, since many clients ignore CSS.
const LAYOUT_ATTRIBUTES = ["align", "valign", "width", "height", "bgcolor", "background", "border", "cellpadding", "cellspacing", "colspan", "rowspan", "nowrap"];
const COMMON_ATTRIBUTES = ["style", "class", "id", "dir", "lang", "role", "title", "hidden", "aria-*", "data-*"];

// Dropped whole, content and all: their text is code, fallback noise or a form's options.
// Everything else outside the allow-list (form, input, button, base, link…) loses its tag and keeps its text.
const DROPPED_WITH_CONTENT = ["script", "noscript", "iframe", "object", "embed", "svg", "math", "template", "textarea", "select", "option", "xmp", "noembed", "noframes"];

// Scripting through CSS in a style attribute: IE's expression(), behaviours and XBL bindings,
// and script URLs. No current client runs them; the dashboard preview must not either.
const SCRIPTED_STYLE = /expression\s*\(|javascript\s*:|vbscript\s*:|behavior\s*:|-moz-binding/i;

const OPTIONS: SanitizeOptions = {
  allowedTags: [...DOCUMENT, ...TABLES, ...BLOCKS, ...SECTIONS, ...INLINE],
  // <style> is how responsive email works (media queries, client resets), so it stays. The
  // risk sanitize-html warns of is CSS-driven script, which mail clients do not run; previews
  // in the dashboard are shown in a sandboxed frame without scripts for the same reason.
  allowVulnerableTags: true,
  allowedAttributes: {
    "*": [...LAYOUT_ATTRIBUTES, ...COMMON_ATTRIBUTES],
    html: ["xmlns", "xmlns:*"],
    meta: ["charset", "name", "content", "http-equiv"],
    a: ["href", "target", "rel", "name"],
    img: ["src", "alt"],
    font: ["color", "face", "size"],
  },
  // Boolean attributes arrive empty; sanitize-html drops empty attributes not listed here.
  allowedEmptyAttributes: ["alt", "hidden", "nowrap"],
  allowedSchemes: ["http", "https", "mailto", "tel"],
  // cid: points at an attachment of the same message (inline images).
  allowedSchemesByTag: { img: ["http", "https", "cid"] },
  nonTextTags: DROPPED_WITH_CONTENT,
  // Keep authored styles byte for byte; parsing each with postcss would be slow on large
  // emails and rewrite them. Scripted CSS is removed below instead.
  parseStyleAttributes: false,
  transformTags: {
    "*": (tagName, attribs) => {
      if (attribs.style !== undefined && SCRIPTED_STYLE.test(attribs.style)) {
        const { style: _dropped, ...rest } = attribs;
        return { tagName, attribs: rest };
      }
      return { tagName, attribs };
    },
  },
};

// sanitize-html drops every directive, but the doctype decides standards or quirks mode in
// mail clients: keep an HTML one (HTML5 or the XHTML/HTML 4 public ones) if the source opens with it.
const DOCTYPE = /^\s*(<!doctype\s+html(?:\s+public(?:\s+"[^"<>]*"){1,2})?\s*>)/i;

/**
 * Makes rendered email HTML safe to send and to preview: full documents, tables and their
 * presentational attributes survive; scripts, frames, forms, event handlers and script or data
 * URLs do not.
 */
export function sanitizeEmailHtml(html: string): string {
  const doctype = DOCTYPE.exec(html)?.[1];
  const sanitized = sanitizeHtml(html, OPTIONS);
  return doctype === undefined ? sanitized : `${doctype}${sanitized}`;
}
