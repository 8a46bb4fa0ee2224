import { describe, expect, it } from "vitest";
import { htmlToText } from "../../src/templates/html-to-text.ts";

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
});
