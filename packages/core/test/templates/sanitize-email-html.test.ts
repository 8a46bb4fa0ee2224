import { describe, expect, it } from "vitest";
import { sanitizeEmailHtml } from "../../src/templates/sanitize-email-html.ts";

describe("sanitizeEmailHtml: what an email keeps", () => {
  it("keeps a full document with its doctype, head, meta, title and style", () => {
    const html =
      '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">' +
      '<html lang="en" xmlns:v="urn:schemas-microsoft-com:vml"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width" /><title>Receipt</title>' +
      "<style>@media (max-width: 600px) { .col { display: block !important; } }</style></head>" +
      '<body bgcolor="#eeeeee" style="margin:0"><p class="lead">Hi</p></body></html>';
    expect(sanitizeEmailHtml(html)).toBe(html);
  });

  it("keeps tables and their presentational attributes", () => {
    const html =
      '<table role="presentation" width="600" border="0" cellpadding="0" cellspacing="0" align="center" bgcolor="#ffffff">' +
      '<tr><td colspan="2" valign="top" background="https://cdn.example.com/bg.png" style="padding:24px" data-id="hero" aria-label="Hero">' +
      '<font face="Arial" color="#333333" size="2">Total</font></td><td nowrap="">2.00</td></tr></table><div hidden="">alt</div>';
    expect(sanitizeEmailHtml(html)).toBe(html);
  });

  it("keeps images over https and cid:, and safe links", () => {
    const html =
      '<img src="https://cdn.example.com/logo.png" alt="Logo" width="120" height="40" /><img src="cid:logo@herald" alt="" />' +
      '<a href="https://example.com/o/1" target="_blank" rel="noopener" title="Order">Order</a> <a href="mailto:help@example.com">Mail</a> <a href="tel:+14155550123">Call</a>';
    expect(sanitizeEmailHtml(html)).toBe(html);
  });
});

describe("sanitizeEmailHtml: XSS vectors", () => {
  it.each([
    ["an onerror handler", "<img src=x onerror=alert(1)>", '<img src="x" />'],
    ["a javascript: link", '<a href="javascript:alert(1)">x</a>', "<a>x</a>"],
    ["a mixed-case, entity-encoded javascript: link", '<a href="JaVaScRiPt&colon;alert(1)">x</a>', "<a>x</a>"],
    ["a numeric-entity javascript: link", '<a href="&#106;avascript:alert(1)">x</a>', "<a>x</a>"],
    ["a javascript: link split by a tab", '<a href="java\tscript:alert(1)">x</a>', "<a>x</a>"],
    ["a vbscript: link", '<a href="vbscript:msgbox(1)">x</a>', "<a>x</a>"],
    ["a data: image", '<img src="data:image/svg+xml;base64,PHN2Zz4=">', "<img />"],
    ["a data: link", '<a href="data:text/html,<script>alert(1)</script>">x</a>', "<a>x</a>"],
    ["svg with onload", "<svg onload=alert(1)><circle r=1 /></svg>after", "after"],
    ["a script split around another", "<scr<script>ipt>alert(1)</script>", "ipt&gt;alert(1)"],
    ["an uppercase script", "<SCRIPT SRC=//evil.example/x.js></SCRIPT>ok", "ok"],
    ["an iframe", '<iframe src="https://evil.example">fallback</iframe>ok', "ok"],
    ["object and embed", '<object data="x.swf"><embed src="x.swf"></object>ok', "ok"],
    ["a form, input and button", '<form action="https://evil.example"><input name="p"><button>Go</button></form>', "Go"],
    ["base and link", '<base href="https://evil.example/"><link rel="stylesheet" href="https://evil.example/x.css">ok', "ok"],
    ["math with a nested payload", "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>", ""],
    ["an onclick on a kept link", '<a href="https://example.com" onclick="steal()">x</a>', '<a href="https://example.com">x</a>'],
    ["scripted CSS in a style attribute", '<div style="width:expression(alert(1))">e</div><div style="background:url(javascript:alert(1))">u</div>', "<div>e</div><div>u</div>"],
    ["a meta refresh to javascript:", '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', '<meta http-equiv="refresh" />'],
  ])("neutralises %s", (_label, html, safe) => {
    expect(sanitizeEmailHtml(html)).toBe(safe);
  });

  it("keeps text escaped", () => {
    expect(sanitizeEmailHtml("<p>Tom &amp; Jerry &lt;script&gt;</p>")).toBe("<p>Tom &amp; Jerry &lt;script&gt;</p>");
  });
});
