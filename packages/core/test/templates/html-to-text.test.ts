import { describe, expect, it } from "vitest";
import { htmlToText, sanitizedHtmlToText } from "../../src/templates/html-to-text.ts";
import { sanitizeEmailHtml } from "../../src/templates/sanitize-email-html.ts";

describe("htmlToText", () => {
  it("turns an email into readable text", () => {
    const html = `<!doctype html><html><head><title>Receipt</title><style>p { color: red }</style></head>
<body><div style="display:none;max-height:0;overflow:hidden;mso-hide:all">Your receipt</div>
<h1>Hello   Ada</h1><p>Your order <b>#12</b>
   is paid.</p><p>Tom &amp; Jerry &lt;3&nbsp;you</p>
<ul>
  <li>Tea</li>
  <li>Cake</li>
</ul>
<p><a href="https://shop.example/o/12">View order</a> or visit <a href="https://shop.example">https://shop.example</a>, <a href="mailto:help@shop.example">help@shop.example</a></p>
<table><tr><td>Tea</td><td>2.00</td></tr>
<tr><td>Cake</td><td>3.50</td></tr></table>
Line one<br>Line two<script>alert(1)</script></body></html>`;
    expect(htmlToText(html)).toBe(
      [
        "Hello Ada",
        "",
        "Your order #12 is paid.",
        "",
        "Tom & Jerry <3 you",
        "",
        "- Tea",
        "- Cake",
        "",
        "View order (https://shop.example/o/12) or visit https://shop.example, help@shop.example",
        "",
        "Tea 2.00",
        "Cake 3.50",
        "",
        "Line one",
        "Line two",
      ].join("\n"),
    );
  });

  it("collapses runs of empty blocks to one blank line", () => {
    expect(htmlToText("<p>a</p><p></p><div></div><p> </p><p>b</p>")).toBe("a\n\nb");
  });

  it("nests blocks onto their own lines", () => {
    expect(htmlToText("<div>x<div>y</div>z</div>")).toBe("x\ny\nz");
  });

  it("writes an image link's URL when it has no text", () => {
    expect(htmlToText('<a href="https://shop.example"><img src="logo.png"></a>')).toBe("https://shop.example");
  });

  it("decodes entities and leaves text that looks like markup as text", () => {
    expect(htmlToText("5 &gt; 3 &amp;&amp; &quot;quoted&quot; &#39;single&#39; &eacute;")).toBe(`5 > 3 && "quoted" 'single' é`);
  });

  it("drops hidden elements", () => {
    expect(htmlToText('<p>shown</p><span hidden>secret</span><div style="visibility:hidden">also</div>')).toBe("shown");
  });

  it("gives the same text from sanitised HTML without parsing it again", () => {
    const corpus = [
      `<!doctype html><html><head><title>T</title><style>td > p { color: red }</style></head><body><div style="display:none">pre</div><h1>Hi</h1><p>a &amp; b &lt;3</p></body></html>`,
      `<ul><li>Tea</li><li>Cake <span hidden>secret</span></li></ul><p><a href="https://x.example/?a=1&amp;b=2">go</a></p>`,
      `<div style="display:none"><div>nested <div>deeper</div></div> still hidden</div><p>shown</p><script>if (a<b) alert(1)</script>`,
      `<table><tr><td>1</td><td>2</td></tr></table>Line<br>next<img src="https://i.example/x.png" alt="">`,
    ];
    for (const html of corpus) {
      const text = sanitizedHtmlToText(sanitizeEmailHtml(html));
      expect(text).toBe(htmlToText(html));
      expect(text).not.toMatch(/pre|secret|nested|deeper|still hidden|alert|color/);
    }
  });
});
