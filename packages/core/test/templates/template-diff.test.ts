import { describe, expect, it } from "vitest";
import { diffLines } from "../../src/templates/diff-lines.ts";
import { TemplateBodySchema } from "../../src/templates/template-content.ts";
import { diffTemplates, summarizeDiff, templateFields } from "../../src/templates/template-diff.ts";

/** Rebuilds both sides from a diff: what a correct diff must always allow. */
function sides(lines: ReturnType<typeof diffLines>) {
  return {
    left: lines.filter((l) => l.kind !== "added").map((l) => l.text),
    right: lines.filter((l) => l.kind !== "removed").map((l) => l.text),
  };
}

describe("diffLines", () => {
  it("marks a changed line in the middle as removed then added, with line numbers", () => {
    expect(diffLines("a\nb\nc", "a\nB\nc")).toEqual([
      { kind: "same", text: "a", leftLine: 1, rightLine: 1 },
      { kind: "removed", text: "b", leftLine: 2 },
      { kind: "added", text: "B", rightLine: 2 },
      { kind: "same", text: "c", leftLine: 3, rightLine: 3 },
    ]);
  });

  it("finds the shortest edit: one insertion and one deletion", () => {
    expect(diffLines("a\nb\nc\nd", "x\na\nb\nd").map((l) => `${l.kind[0]}${l.text}`)).toEqual(["ax", "sa", "sb", "rc", "sd"]);
  });

  it("treats an empty text as no lines", () => {
    expect(diffLines("", "a\nb")).toEqual([
      { kind: "added", text: "a", rightLine: 1 },
      { kind: "added", text: "b", rightLine: 2 },
    ]);
    expect(diffLines("a", "")).toEqual([{ kind: "removed", text: "a", leftLine: 1 }]);
    expect(diffLines("", "")).toEqual([]);
  });

  it("keeps both sides intact and is minimal on a classic example", () => {
    // Myers' paper: ABCABBA → CBABAC has an edit distance of 5.
    const a = [..."ABCABBA"].join("\n");
    const b = [..."CBABAC"].join("\n");
    const lines = diffLines(a, b);
    expect(sides(lines)).toEqual({ left: [..."ABCABBA"], right: [..."CBABAC"] });
    expect(lines.filter((l) => l.kind !== "same")).toHaveLength(5);
  });

  it("reproduces both sides for many pseudo-random edits", () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    for (let round = 0; round < 50; round++) {
      const a = Array.from({ length: next() % 30 }, () => String(next() % 5));
      const b = a.filter(() => next() % 4 !== 0).flatMap((line) => (next() % 5 === 0 ? [line, String(next() % 5)] : [line]));
      expect(sides(diffLines(a.join("\n"), b.join("\n")))).toEqual({ left: a, right: b });
    }
  });

  it("falls back to a block replace when the middle is too large, keeping the common start and end", () => {
    const a = ["head", ...Array.from({ length: 6000 }, (_, i) => `a${i}`), "tail"].join("\n");
    const b = ["head", ...Array.from({ length: 6000 }, (_, i) => `b${i}`), "tail"].join("\n");
    const started = performance.now();
    const lines = diffLines(a, b);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(lines[0]).toEqual({ kind: "same", text: "head", leftLine: 1, rightLine: 1 });
    expect(lines.at(-1)).toEqual({ kind: "same", text: "tail", leftLine: 6002, rightLine: 6002 });
    expect(lines.filter((l) => l.kind === "removed")).toHaveLength(6000);
    expect(lines[6001]).toEqual({ kind: "added", text: "b0", rightLine: 2 });
  });

  it("falls back to a block replace when the texts differ in too many places", () => {
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`).join("\n");
    const b = Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? `a${i}` : `b${i}`)).join("\n");
    const started = performance.now();
    const lines = diffLines(a, b);
    expect(performance.now() - started).toBeLessThan(1_000);
    // 3,000 edits exceed the edit budget, so nothing in the middle is matched.
    expect(lines.filter((l) => l.kind === "same")).toHaveLength(1);
    expect(sides(lines)).toEqual({ left: a.split("\n"), right: b.split("\n") });
  });
});

const V1 = TemplateBodySchema.parse({
  variables: [{ name: "data.order_id", type: "string", required: true, example: "A-1" }],
  content: {
    en: { email: { subject: "Order {{ data.order_id }}", html: "<p>Hi</p>\n<p>Paid</p>" } },
    "pt-BR": { push: { title: "Pedido", body: "Pago", data: { url: "https://x.test/{{ data.order_id }}" } } },
  },
});
const V2 = TemplateBodySchema.parse({
  variables: [
    { name: "data.total", type: "number", required: false, example: 3 },
    { name: "data.order_id", type: "string", required: true, example: "A-1" },
  ],
  content: {
    en: { email: { subject: "Order {{ data.order_id }} is paid", html: "<p>Hi</p>\n<p>Paid</p>", preheader: "Thanks" } },
    "pt-BR": { push: { title: "Pedido", body: "Pago" } },
  },
});

describe("templateFields", () => {
  it("flattens a version into readable fields", () => {
    expect(templateFields(V1)).toEqual({
      variables: JSON.stringify([{ name: "data.order_id", type: "string", required: true, example: "A-1" }], null, 2),
      "en · email · subject": "Order {{ data.order_id }}",
      "en · email · html": "<p>Hi</p>\n<p>Paid</p>",
      "pt-BR · push · title": "Pedido",
      "pt-BR · push · body": "Pago",
      "pt-BR · push · data.url": "https://x.test/{{ data.order_id }}",
    });
  });
});

describe("diffTemplates", () => {
  it("lists only the fields that differ, in a stable order", () => {
    const diffs = diffTemplates(V1, V2);
    expect(diffs.map((d) => [d.field, d.change])).toEqual([
      ["variables", "changed"],
      ["en · email · subject", "changed"],
      ["en · email · preheader", "added"],
      ["pt-BR · push · data.url", "removed"],
    ]);
    expect(diffs[1]?.lines).toEqual([
      { kind: "removed", text: "Order {{ data.order_id }}", leftLine: 1 },
      { kind: "added", text: "Order {{ data.order_id }} is paid", rightLine: 1 },
    ]);
  });

  it("ignores the order variables were declared in", () => {
    expect(diffTemplates(V2, { ...V2, variables: [...V2.variables].reverse() })).toEqual([]);
  });

  it("shows every field as added for a first version", () => {
    expect(diffTemplates(null, V1).map((d) => d.change)).toEqual(["added", "added", "added", "added", "added", "added"]);
  });
});

describe("summarizeDiff", () => {
  it("keeps the changed lines with their numbers", () => {
    expect(summarizeDiff(diffTemplates(V1, V2)).fields[1]).toEqual({
      field: "en · email · subject",
      change: "changed",
      added: 1,
      removed: 1,
      lines: [
        { kind: "removed", line: 1, text: "Order {{ data.order_id }}" },
        { kind: "added", line: 1, text: "Order {{ data.order_id }} is paid" },
      ],
    });
  });

  it("caps the lines and long lines, and says so", () => {
    const big = diffTemplates(null, TemplateBodySchema.parse({ variables: [], content: { en: { sms: { body: Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n") }, email: { subject: "s", html: "x".repeat(1000) } } } }));
    const summary = summarizeDiff(big, 10);
    expect(summary.truncated).toBe(true);
    expect(summary.fields.reduce((sum, f) => sum + f.lines.length, 0)).toBe(10);
    expect(summary.fields.find((f) => f.field === "en · sms · body")).toMatchObject({ added: 30 });
    const html = summarizeDiff(big).fields.find((f) => f.field === "en · email · html");
    expect(html?.lines[0]?.text).toHaveLength(301);
  });

  it("is not truncated when everything fits", () => {
    expect(summarizeDiff(diffTemplates(V1, V2)).truncated).toBe(false);
  });
});
