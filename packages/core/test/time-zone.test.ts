import { describe, expect, it } from "vitest";
import { TimeZoneSchema, isTimeZone } from "../src/time/time-zone.ts";

describe("isTimeZone", () => {
  it("knows IANA names", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("America/Argentina/Buenos_Aires")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
  });

  it("refuses unknown names and bare offsets, which Postgres would read with the sign flipped", () => {
    expect(isTimeZone("Europe/Atlantis")).toBe(false);
    expect(isTimeZone("+01:00")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });
});

describe("TimeZoneSchema", () => {
  it("normalises the spelling", () => {
    expect(TimeZoneSchema.parse("asia/tokyo")).toBe("Asia/Tokyo");
  });

  it("names the bad value", () => {
    expect(TimeZoneSchema.safeParse("CEST").error?.issues[0]?.message).toBe('"CEST" is not an IANA time zone such as "Europe/Berlin"');
  });
});
