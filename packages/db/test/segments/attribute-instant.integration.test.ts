import { parseAttributeInstant } from "@herald/core";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../support/random-segments.ts";
import { useTestDatabase } from "../support/test-database.ts";

// Each piece: shapes the reading accepts, then ones it must refuse (drawn a fifth of the time).
const YEARS = [["0001", "0099", "1900", "2000", "2023", "2024", "2026", "9999"], ["0000", "20x6", "202"]] as const;
const MONTHS = [["01", "02", "04", "11", "12"], ["00", "13", "1-"]] as const;
const DAYS = [["01", "28", "29", "30", "31"], ["00", "32", "3"]] as const;
const TIMES = [
  ["", "T00:00", "T09:30", "T23:59:59", "T09:00:00.1", "T09:00:00.123", "T09:00:00.123456"],
  ["T24:00", "T09:60", "T09:00:60", "T09:00:00.1234567", "T9:00", " 09:00", "T09:00:00.00x"],
] as const;
const OFFSETS = [["", "Z", "+01:00", "-05:30", "+0530", "+15:59"], ["z", "+16:00", "-00:60", "+01", "Z "]] as const;

describe("herald.attribute_instant", () => {
  const test = useTestDatabase();

  it("reads exactly the strings parseAttributeInstant reads, as the same instants", async () => {
    const random = mulberry32(7);
    const pick = (pieces: readonly [readonly string[], readonly string[]]) => {
      const items = pieces[random() < 0.8 ? 0 : 1];
      return items[Math.floor(random() * items.length)]!;
    };
    const texts = Array.from({ length: 5000 }, () => `${pick(YEARS)}-${pick(MONTHS)}-${pick(DAYS)}${pick(TIMES)}${pick(OFFSETS)}`);
    texts.push("2024-02-29", "1900-02-29", "2000-02-29", "2026-11-30T09:00:00.000Z", "2026-11-30T09:00:00.000+00:00", "", "2026-11-30\n", "２０２６-11-30");
    // Whole milliseconds: a double cannot hold microseconds since the epoch in years like 9999,
    // and the evaluator compares with cut-offs in whole milliseconds anyway.
    const { rows } = await test.db.pool.query<{ text: string; ms: string | null }>(
      "SELECT t AS text, floor(extract(epoch FROM herald.attribute_instant(t)) * 1000)::bigint::text AS ms FROM unnest($1::text[]) t",
      [texts],
    );
    const disagreements = rows.filter((r) => {
      const ms = parseAttributeInstant(r.text);
      return (ms === null ? null : String(Math.floor(ms))) !== r.ms;
    });
    expect(disagreements).toEqual([]);
    // The generator reaches both sides: plenty of dates and plenty of refusals.
    const read = rows.filter((r) => r.ms !== null).length;
    expect(read).toBeGreaterThan(500);
    expect(rows.length - read).toBeGreaterThan(500);
  });
});
