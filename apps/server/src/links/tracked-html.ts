// Email HTML is the customer's own markup, so these are careful string edits rather than a parse:
// they touch only an <a>/<area> tag's href and the position before </body>, and leave
// everything else byte for byte.

// An <a> or <area> tag's href, quoted with " or ', or unquoted.
const ANCHOR_HREF = /(<(?:a|area)\b[^>]*?\shref\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;

/**
 * Replaces the href of every link tag whose URL `rewrite` maps to a new one (null leaves it).
 * Only <a> and <area>: a <link href> stylesheet fetched through a click URL would count as a click.
 */
export function rewriteLinks(html: string, rewrite: (url: string) => string | null): string {
  return html.replace(ANCHOR_HREF, (whole, prefix: string, double?: string, single?: string, bare?: string) => {
    const raw = double ?? single ?? bare ?? "";
    const replaced = rewrite(decodeAttribute(raw.trim()));
    return replaced === null ? whole : `${prefix}"${escapeAttribute(replaced)}"`;
  });
}

/** Inserts a 1×1 image before the last </body>, or at the end when there is none. */
export function addOpenPixel(html: string, src: string): string {
  const pixel = `<img src="${escapeAttribute(src)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;" />`;
  const at = html.search(/<\/body\s*>(?![\s\S]*<\/body\s*>)/i);
  return at === -1 ? `${html}${pixel}` : `${html.slice(0, at)}${pixel}${html.slice(at)}`;
}

const NAMED: Record<string, string> = { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">" };

/** An attribute value as the browser reads it (`&amp;` in a URL is `&`). */
export function decodeAttribute(value: string): string {
  return value.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|quot|apos|lt|gt));?/g, (whole, dec?: string, hex?: string, name?: string) => {
    if (name) return NAMED[name]!;
    const code = dec !== undefined ? Number(dec) : Number.parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
