import { describe, expect, it } from "vitest";
import { smsSegments } from "../../src/templates/sms-segments.ts";

describe("smsSegments", () => {
  it("counts nothing for an empty message", () => {
    expect(smsSegments("")).toEqual({ encoding: "GSM-7", segments: 0, units: 0 });
  });

  it.each([
    ["160 GSM characters: one segment", "a".repeat(160), { encoding: "GSM-7", segments: 1, units: 160 }],
    ["161 GSM characters: two segments of 153", "a".repeat(161), { encoding: "GSM-7", segments: 2, units: 161 }],
    ["306 GSM characters: exactly two parts", "a".repeat(306), { encoding: "GSM-7", segments: 2, units: 306 }],
    ["307 GSM characters: three parts", "a".repeat(307), { encoding: "GSM-7", segments: 3, units: 307 }],
    ["letters outside the GSM alphabet (á, ã, —) force UCS-2", "Olá, é às 10h — não", { encoding: "UCS-2", segments: 1, units: 19 }],
    ["one û forces UCS-2, and € then counts one unit", "Ça coûte 5€ à Zürich", { encoding: "UCS-2", segments: 1, units: 20 }],
    ["the accented letters GSM has stay GSM-7", "Ärger über Öl, Ñu, Å", { encoding: "GSM-7", segments: 1, units: 20 }],
  ])("%s", (_label, text, expected) => {
    expect(smsSegments(text)).toEqual(expected);
  });

  it("counts each extension character as two units", () => {
    expect(smsSegments("{}[]~^|\\€\f")).toEqual({ encoding: "GSM-7", segments: 1, units: 20 });
    expect(smsSegments("€".repeat(80))).toEqual({ encoding: "GSM-7", segments: 1, units: 160 });
    expect(smsSegments("€".repeat(81))).toEqual({ encoding: "GSM-7", segments: 2, units: 162 });
  });

  it("does not split an escape pair across parts", () => {
    // 152 units, then a 2-unit "€" that would straddle units 153 and 154: it opens part two.
    const text = `${"a".repeat(152)}€${"a".repeat(152)}`;
    expect(smsSegments(text)).toEqual({ encoding: "GSM-7", segments: 3, units: 306 });
    // Without the escape pair the same length fits in two.
    expect(smsSegments("a".repeat(306)).segments).toBe(2);
  });

  it.each([
    ["70 UCS-2 units: one segment", "ж".repeat(70), { encoding: "UCS-2", segments: 1, units: 70 }],
    ["71 UCS-2 units: two segments of 67", "ж".repeat(71), { encoding: "UCS-2", segments: 2, units: 71 }],
    ["134 UCS-2 units: two parts", "ж".repeat(134), { encoding: "UCS-2", segments: 2, units: 134 }],
    ["135 UCS-2 units: three parts", "ж".repeat(135), { encoding: "UCS-2", segments: 3, units: 135 }],
    ["one emoji turns a GSM message into UCS-2", `${"a".repeat(68)}🙂`, { encoding: "UCS-2", segments: 1, units: 70 }],
    ["an emoji is two UTF-16 units", `${"a".repeat(69)}🙂`, { encoding: "UCS-2", segments: 2, units: 71 }],
  ])("%s", (_label, text, expected) => {
    expect(smsSegments(text)).toEqual(expected);
  });

  it("does not split a surrogate pair across parts", () => {
    // 66 units, then a 2-unit emoji that would straddle units 67 and 68: it opens part two.
    expect(smsSegments(`${"ж".repeat(66)}🙂${"ж".repeat(66)}`)).toEqual({ encoding: "UCS-2", segments: 3, units: 134 });
  });
});
