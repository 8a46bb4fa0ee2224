import { describe, expect, it } from "vitest";
import { liquidVariables, parseLiquid, renderLiquid } from "../../src/templates/liquid.ts";

describe("parseLiquid", () => {
  it("accepts valid Liquid", () => {
    expect(parseLiquid("Hi {{ user.first_name | capitalize }}{% if data.vip %}!{% endif %}", "text")).toEqual({ ok: true });
  });

  it("reports an unclosed output at its line and column", () => {
    expect(parseLiquid("Dear customer,\n\nHello {{ data.x ", "text")).toEqual({
      ok: false,
      message: 'output "{{ data.x " not closed',
      line: 3,
      column: 7,
    });
  });

  it("reports an unclosed tag where it opens", () => {
    expect(parseLiquid("a\n  {% if data.vip %}VIP", "html")).toMatchObject({ ok: false, message: "tag {% if data.vip %} not closed", line: 2, column: 3 });
  });

  it("refuses unknown filters when parsing", () => {
    expect(parseLiquid("{{ data.name | shout }}", "text")).toMatchObject({ ok: false, message: "undefined filter: shout", line: 1, column: 1 });
  });

  it.each([
    ["include", "{% include 'header' %}"],
    ["render", "{% render 'footer' %}"],
    ["layout", "{% layout 'base' %}"],
    ["block", "{% block body %}x{% endblock %}"],
  ])("refuses the %s tag with a clear message", (tag, source) => {
    expect(parseLiquid(`Hi\n${source}`, "html")).toMatchObject({
      ok: false,
      message: `${tag} is not available in Herald templates: write the content in place`,
      line: 2,
      column: 1,
    });
  });

  it("refuses include inside a {% liquid %} tag too", () => {
    expect(parseLiquid("{% liquid\n  include 'x'\n%}", "text")).toMatchObject({ ok: false, message: "include is not available in Herald templates: write the content in place" });
  });

  it("refuses the random sample filter", () => {
    expect(parseLiquid("{{ data.items | sample }}", "text")).toMatchObject({ ok: false, message: "undefined filter: sample" });
  });
});

describe("liquidVariables", () => {
  it("lists the scope paths a source reads, sorted, without loop locals or assigns", () => {
    const source = `{% for item in data.items %}{{ item.name }} {{ forloop.index }}{% endfor %}
{% assign greeting = user.first_name | default: "there" %}{{ greeting }} {{ data.order.total }}
{% capture who %}{{ user.email }}{% endcapture %}{{ who }}`;
    expect(liquidVariables(source)).toEqual(["data.items", "data.order.total", "user.email", "user.first_name"]);
  });

  it("drops index segments and stops at computed keys", () => {
    expect(liquidVariables("{{ data.lines[0].sku }} {{ data.prices[user.currency] }}")).toEqual(["data.lines.sku", "data.prices", "user.currency"]);
  });

  it("lists variables in conditions and filter arguments", () => {
    expect(liquidVariables("{% if data.vip and user.tier == 'gold' %}{{ data.name | append: data.suffix }}{% endif %}")).toEqual([
      "data.name",
      "data.suffix",
      "data.vip",
      "user.tier",
    ]);
  });

  it("is empty for a source that does not parse", () => {
    expect(liquidVariables("{{ data.x ")).toEqual([]);
  });
});

describe("renderLiquid", () => {
  const scope = { user: { first_name: "Ada" }, data: { html: "<b>&</b>", template: "{{ user.first_name }}", when: "2026-03-01T09:30:00Z" } };

  it("escapes outputs in html mode and not in text mode", () => {
    expect(renderLiquid("<p>{{ data.html }}</p>", "html", scope)).toEqual({ ok: true, output: "<p>&lt;b&gt;&amp;&lt;/b&gt;</p>" });
    expect(renderLiquid("{{ data.html }}", "text", scope)).toEqual({ ok: true, output: "<b>&</b>" });
  });

  it("writes Liquid found in data literally", () => {
    expect(renderLiquid("{{ data.template }}", "text", scope)).toEqual({ ok: true, output: "{{ user.first_name }}" });
  });

  it("reads own properties only", () => {
    expect(renderLiquid("[{{ data.constructor }}][{{ user.toString }}]", "text", scope)).toEqual({ ok: true, output: "[][]" });
  });

  it("formats dates in UTC whatever the machine's zone", () => {
    expect(renderLiquid("{{ data.when | date: '%Y-%m-%d %H:%M' }}", "text", scope)).toEqual({ ok: true, output: "2026-03-01 09:30" });
  });

  it("refuses the clock: a render must not depend on when it runs", () => {
    expect(renderLiquid("{{ 'now' | date: '%Y' }}", "text", scope)).toMatchObject({
      ok: false,
      kind: "render_error",
      message: '"now" is not available in Herald templates: pass the date in the event\'s data',
    });
  });

  it("stops a huge range at once on the memory limit", () => {
    const started = performance.now();
    const result = renderLiquid("{% for i in (1..100000000) %}x{% endfor %}", "text", scope);
    expect(result).toMatchObject({ ok: false, kind: "render_error", message: "memory alloc limit exceeded", line: 1, column: 1 });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("stops a long loop on the time limit", () => {
    const started = performance.now();
    const result = renderLiquid("{% for i in (1..5000) %}{% for j in (1..5000) %}{% endfor %}{% endfor %}", "text", scope);
    expect(result).toMatchObject({ ok: false, kind: "render_error", message: "template render limit exceeded" });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("tries again when a stall, not the template, used up the time limit", () => {
    const busy = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    // The first read stalls past the limit, as a GC pause or a preempted process would.
    let reads = 0;
    const stalledOnce = { data: { get name() {
      if (reads++ === 0) busy(250);
      return "Ada";
    } } };
    expect(renderLiquid("{{ data.name }} {{ data.name }}", "text", stalledOnce)).toEqual({ ok: true, output: "Ada Ada" });
    // A render that is slow every time fails, after its second try.
    let slowReads = 0;
    const alwaysSlow = { data: { get name() {
      slowReads++;
      busy(250);
      return "Ada";
    } } };
    expect(renderLiquid("{{ data.name }} {{ data.name }}", "text", alwaysSlow)).toMatchObject({ ok: false, kind: "render_error", message: "template render limit exceeded" });
    expect(slowReads).toBe(2);
  });

  it("refuses output over 1 MiB", () => {
    const result = renderLiquid("{% for i in (1..1100) %}{{ data.kb }}{% endfor %}", "text", { data: { kb: "x".repeat(1024) } });
    expect(result).toEqual({ ok: false, kind: "too_large", message: "renders to more than 1 MiB" });
  });

  it("reports a syntax error as such", () => {
    expect(renderLiquid("{% if %}", "text", scope)).toMatchObject({ ok: false, kind: "syntax" });
  });
});
