import { describe, expect, it } from "vitest";
import { compactPhone, parseBooleanCell, parseDateCell, parseNumberCell, trimCell } from "../../src/imports/import-cells.ts";

describe("import cells", () => {
  it("trims only spaces and tabs", () => {
    expect(trimCell(" \tu-1 \t")).toBe("u-1");
    expect(trimCell("\u00a0u-1")).toBe("\u00a0u-1");
    expect(trimCell(undefined)).toBe("");
  });

  it.each([
    ["42", 42],
    ["-3.5", -3.5],
    ["+7", 7],
    [".5", 0.5],
    ["1e3", 1000],
    ["12,5", null],
    ["1 000", null],
    ["NaN", null],
    ["Infinity", null],
    ["1e999", null],
    ["", null],
  ])("reads %j as the number %j", (text, expected) => {
    expect(parseNumberCell(text)).toBe(expected);
  });

  it.each([
    ["TRUE", true],
    ["yes", true],
    ["Y", true],
    ["1", true],
    ["f", false],
    ["No", false],
    ["0", false],
    ["maybe", null],
  ])("reads %j as the boolean %j", (text, expected) => {
    expect(parseBooleanCell(text)).toBe(expected);
  });

  it.each([
    ["2026-11-30", "2026-11-30"],
    ["2024-02-29", "2024-02-29"],
    ["2026-02-29", null],
    ["2026-13-01", null],
    ["2026-11-30T09:00:00Z", "2026-11-30T09:00:00.000Z"],
    ["2026-11-30T09:00:00+01:00", "2026-11-30T08:00:00.000Z"],
    ["2026-11-30 09:30", "2026-11-30T09:30:00.000Z"],
    ["2026-11-30T09:00:00.25-0230", "2026-11-30T11:30:00.250Z"],
    ["2026-11-30T24:00:00Z", null],
    ["2026-11-30T09:00:00+16:00", null],
    ["30/11/2026", null],
    ["yesterday", null],
  ])("reads %j as the date %j", (text, expected) => {
    expect(parseDateCell(text)).toBe(expected);
  });

  it("drops the separators people write into phone numbers", () => {
    expect(compactPhone("+49 (151) 123-45.678")).toBe("+4915112345678");
  });
});
