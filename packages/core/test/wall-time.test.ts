import { describe, expect, it } from "vitest";
import { addWallDays, fromWallTime, toWallTime } from "../src/time/wall-time.ts";

const at = (year: number, month: number, day: number, hour: number, minute: number) => ({ year, month, day, hour, minute, second: 0 });

describe("toWallTime", () => {
  it("reads the local clock in a zone", () => {
    expect(toWallTime(new Date("2026-03-29T01:00:00Z"), "Europe/Berlin")).toEqual(at(2026, 3, 29, 3, 0));
    expect(toWallTime(new Date("2026-03-29T00:59:59Z"), "Europe/Berlin")).toEqual({ ...at(2026, 3, 29, 1, 59), second: 59 });
    expect(toWallTime(new Date("2026-12-31T15:00:00Z"), "Asia/Tokyo")).toEqual(at(2027, 1, 1, 0, 0));
  });

  it("shows midnight as hour 0, not 24", () => {
    expect(toWallTime(new Date("2026-06-01T22:00:00Z"), "Europe/Berlin").hour).toBe(0);
  });
});

describe("fromWallTime", () => {
  it("finds the instant of an ordinary wall time", () => {
    expect(fromWallTime(at(2026, 7, 1, 9, 0), "America/New_York").toISOString()).toBe("2026-07-01T13:00:00.000Z");
    expect(fromWallTime(at(2026, 1, 15, 9, 0), "Europe/Berlin").toISOString()).toBe("2026-01-15T08:00:00.000Z");
  });

  it("gives the first instant after a spring-forward gap for a wall time inside it", () => {
    expect(fromWallTime(at(2026, 3, 29, 2, 30), "Europe/Berlin").toISOString()).toBe("2026-03-29T01:00:00.000Z");
    expect(fromWallTime(at(2026, 3, 8, 2, 0), "America/New_York").toISOString()).toBe("2026-03-08T07:00:00.000Z");
  });

  it("gives the earlier instant of a repeated wall time, or the later one when asked", () => {
    expect(fromWallTime(at(2026, 10, 25, 2, 30), "Europe/Berlin").toISOString()).toBe("2026-10-25T00:30:00.000Z");
    expect(fromWallTime(at(2026, 10, 25, 2, 30), "Europe/Berlin", "later").toISOString()).toBe("2026-10-25T01:30:00.000Z");
    expect(fromWallTime(at(2026, 11, 1, 1, 30), "America/New_York").toISOString()).toBe("2026-11-01T05:30:00.000Z");
    expect(fromWallTime(at(2026, 11, 1, 1, 30), "America/New_York", "later").toISOString()).toBe("2026-11-01T06:30:00.000Z");
  });
});

describe("addWallDays", () => {
  it("rolls over month and year ends", () => {
    expect(addWallDays(at(2026, 12, 31, 22, 0), 1)).toEqual(at(2027, 1, 1, 22, 0));
    expect(addWallDays(at(2028, 2, 28, 8, 0), 1)).toEqual(at(2028, 2, 29, 8, 0));
  });
});
