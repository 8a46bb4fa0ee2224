import { describe, expect, it } from "vitest";
import { ClockTimeSchema, QuietWindowSchema, isInQuietWindow, parseClockTime, quietWindowEnd } from "../src/quiet-hours/quiet-hours.ts";

const OVERNIGHT = { start: "22:00", end: "08:00" };
const LUNCH = { start: "13:00", end: "14:00" };
const UNTIL_HALF_TWO = { start: "22:00", end: "02:30" };

function endOf(now: string, window: { start: string; end: string }, timeZone: string): string | null {
  return quietWindowEnd(new Date(now), window, timeZone)?.toISOString() ?? null;
}

describe("ClockTimeSchema", () => {
  it("accepts 00:00 to 23:59", () => {
    for (const time of ["00:00", "07:05", "23:59"]) expect(ClockTimeSchema.safeParse(time).success).toBe(true);
  });

  it.each(["24:00", "7:00", "07:60", "07:00:00", "7pm"])("rejects %s, naming it", (time) => {
    expect(ClockTimeSchema.safeParse(time).error?.issues[0]?.message).toBe(
      `"${time}" is not a clock time: use HH:MM from 00:00 to 23:59, such as "22:00"`,
    );
  });
});

describe("parseClockTime", () => {
  it("gives minutes since midnight", () => {
    expect(parseClockTime("00:00")).toBe(0);
    expect(parseClockTime("08:30")).toBe(510);
    expect(parseClockTime("22:00")).toBe(1320);
    expect(parseClockTime("23:59")).toBe(1439);
  });

  it("throws on what the schema would reject", () => {
    expect(() => parseClockTime("24:00")).toThrow('"24:00" is not a clock time');
  });
});

describe("QuietWindowSchema", () => {
  it("accepts a window with an IANA zone, normalising its spelling", () => {
    expect(QuietWindowSchema.parse({ start: "22:00", end: "08:00", timezone: "europe/berlin" })).toEqual({
      start: "22:00",
      end: "08:00",
      timezone: "Europe/Berlin",
    });
  });

  it("rejects a window of no length", () => {
    const issue = QuietWindowSchema.safeParse({ start: "22:00", end: "22:00" }).error?.issues[0];
    expect(issue?.message).toBe('start and end are both "22:00": a quiet window must have a length');
    expect(issue?.path).toEqual(["end"]);
  });

  it("rejects an unknown zone", () => {
    expect(QuietWindowSchema.safeParse({ start: "22:00", end: "08:00", timezone: "Mars/Olympus" }).error?.issues[0]?.message).toBe(
      '"Mars/Olympus" is not an IANA time zone such as "Europe/Berlin"',
    );
  });
});

describe("isInQuietWindow", () => {
  it("includes the start and excludes the end of a window past midnight (Asia/Tokyo, UTC+9)", () => {
    const tokyo = (iso: string) => isInQuietWindow(new Date(iso), OVERNIGHT, "Asia/Tokyo");
    expect(tokyo("2026-06-01T12:59:59Z")).toBe(false); // 21:59:59
    expect(tokyo("2026-06-01T13:00:00Z")).toBe(true); // 22:00
    expect(tokyo("2026-06-01T15:00:00Z")).toBe(true); // 00:00
    expect(tokyo("2026-06-01T22:59:59Z")).toBe(true); // 07:59:59
    expect(tokyo("2026-06-01T23:00:00Z")).toBe(false); // 08:00
  });

  it("handles a window within one day", () => {
    const tokyo = (iso: string) => isInQuietWindow(new Date(iso), LUNCH, "Asia/Tokyo");
    expect(tokyo("2026-06-01T03:59:00Z")).toBe(false); // 12:59
    expect(tokyo("2026-06-01T04:00:00Z")).toBe(true); // 13:00
    expect(tokyo("2026-06-01T04:59:00Z")).toBe(true); // 13:59
    expect(tokyo("2026-06-01T05:00:00Z")).toBe(false); // 14:00
  });

  it("reads the local clock, not UTC", () => {
    expect(isInQuietWindow(new Date("2026-06-01T21:30:00Z"), OVERNIGHT, "Europe/Berlin")).toBe(true); // 23:30 CEST
    expect(isInQuietWindow(new Date("2026-06-01T21:30:00Z"), OVERNIGHT, "America/New_York")).toBe(false); // 17:30 EDT
  });
});

describe("quietWindowEnd", () => {
  it("is null outside the window", () => {
    expect(endOf("2026-06-01T12:00:00Z", OVERNIGHT, "Asia/Tokyo")).toBeNull(); // 21:00
    expect(endOf("2026-06-01T23:00:00Z", OVERNIGHT, "Asia/Tokyo")).toBeNull(); // 08:00, the end itself
  });

  it("ends a Tokyo night at 08:00 the next morning", () => {
    expect(endOf("2026-06-01T13:00:00Z", OVERNIGHT, "Asia/Tokyo")).toBe("2026-06-01T23:00:00.000Z");
    expect(endOf("2026-06-01T18:00:00Z", OVERNIGHT, "Asia/Tokyo")).toBe("2026-06-01T23:00:00.000Z"); // 03:00
  });

  it("ends a lunch window the same day", () => {
    expect(endOf("2026-06-01T04:30:00Z", LUNCH, "Asia/Tokyo")).toBe("2026-06-01T05:00:00.000Z");
  });

  describe("Europe/Berlin, spring forward on 2026-03-29 (02:00 CET becomes 03:00 CEST at 01:00Z)", () => {
    it("ends a night that began in winter time at 08:00 summer time", () => {
      expect(endOf("2026-03-28T22:00:00Z", OVERNIGHT, "Europe/Berlin")).toBe("2026-03-29T06:00:00.000Z");
    });

    it("ends a window whose end, 02:30, never happens at 03:00 local, when the clocks jump", () => {
      expect(endOf("2026-03-28T23:30:00Z", UNTIL_HALF_TWO, "Europe/Berlin")).toBe("2026-03-29T01:00:00.000Z");
      expect(isInQuietWindow(new Date("2026-03-29T00:59:59Z"), UNTIL_HALF_TWO, "Europe/Berlin")).toBe(true); // 01:59:59 CET
      expect(isInQuietWindow(new Date("2026-03-29T01:00:00Z"), UNTIL_HALF_TWO, "Europe/Berlin")).toBe(false); // 03:00 CEST
    });
  });

  describe("Europe/Berlin, fall back on 2026-10-25 (03:00 CEST becomes 02:00 CET at 01:00Z)", () => {
    it("ends a night that began in summer time at 08:00 winter time", () => {
      expect(endOf("2026-10-24T21:00:00Z", OVERNIGHT, "Europe/Berlin")).toBe("2026-10-25T07:00:00.000Z");
    });

    it("ends at the first 02:30 while the clock first shows 02:10", () => {
      expect(endOf("2026-10-25T00:10:00Z", UNTIL_HALF_TWO, "Europe/Berlin")).toBe("2026-10-25T00:30:00.000Z");
    });

    it("is outside between the first 02:30 and the repeat of 02:00", () => {
      expect(endOf("2026-10-25T00:45:00Z", UNTIL_HALF_TWO, "Europe/Berlin")).toBeNull();
    });

    it("ends at the second 02:30 when the clock shows 02:10 again", () => {
      expect(endOf("2026-10-25T01:10:00Z", UNTIL_HALF_TWO, "Europe/Berlin")).toBe("2026-10-25T01:30:00.000Z");
    });
  });

  describe("America/New_York, spring forward on 2026-03-08 (02:00 EST becomes 03:00 EDT at 07:00Z)", () => {
    it("ends a night that began in standard time at 08:00 daylight time", () => {
      expect(endOf("2026-03-08T03:30:00Z", OVERNIGHT, "America/New_York")).toBe("2026-03-08T12:00:00.000Z");
    });

    it("ends a 01:00 to 02:30 window at 03:00 EDT, when the clocks jump", () => {
      expect(endOf("2026-03-08T06:30:00Z", { start: "01:00", end: "02:30" }, "America/New_York")).toBe("2026-03-08T07:00:00.000Z");
    });
  });

  describe("America/New_York, fall back on 2026-11-01 (02:00 EDT becomes 01:00 EST at 06:00Z)", () => {
    it("ends a night that began in daylight time at 08:00 standard time", () => {
      expect(endOf("2026-11-01T03:00:00Z", OVERNIGHT, "America/New_York")).toBe("2026-11-01T13:00:00.000Z");
    });

    it("ends a window until 01:30 at whichever 01:30 is next", () => {
      const window = { start: "00:00", end: "01:30" };
      expect(endOf("2026-11-01T05:10:00Z", window, "America/New_York")).toBe("2026-11-01T05:30:00.000Z"); // 01:10 EDT
      expect(endOf("2026-11-01T06:10:00Z", window, "America/New_York")).toBe("2026-11-01T06:30:00.000Z"); // 01:10 EST
    });
  });
});
