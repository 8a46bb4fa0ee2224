import { describe, expect, it } from "vitest";
import { parseAttributeInstant } from "../../src/segments/attribute-dates.ts";

describe("parseAttributeInstant", () => {
  it.each<[string, string | null]>([
    ["2026-11-30", "2026-11-30T00:00:00.000Z"],
    ["2024-02-29", "2024-02-29T00:00:00.000Z"],
    ["2026-11-30T09:00", "2026-11-30T09:00:00.000Z"],
    ["2026-11-30T09:00:00+01:00", "2026-11-30T08:00:00.000Z"],
    ["2026-11-30T09:00:00.250-0530", "2026-11-30T14:30:00.250Z"],
    ["0099-01-01", "0099-01-01T00:00:00.000Z"],
    ["2026-02-29", null],
    ["0000-01-01", null],
    ["2026-11-30T24:00", null],
    ["2026-11-30T09:00+16:00", null],
    ["2026-11-30T09:00:00.1234567Z", null],
    ["30.11.2026", null],
  ])("%s", (text, iso) => {
    const ms = parseAttributeInstant(text);
    expect(ms === null ? null : new Date(ms).toISOString()).toBe(iso);
  });

  it("keeps microseconds as the fraction of a millisecond", () => {
    expect(parseAttributeInstant("1970-01-01T00:00:00.000250Z")).toBe(0.25);
  });
});
