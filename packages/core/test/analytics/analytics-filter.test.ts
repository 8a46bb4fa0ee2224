import { describe, expect, it } from "vitest";
import { AnalyticsFilterSchema, bucketsBetween, dayIn, daysBetween, weekStart } from "../../src/analytics/analytics-filter.ts";

describe("analytics filter", () => {
  it("accepts a range with optional dimensions", () => {
    expect(AnalyticsFilterSchema.parse({ from: "2026-11-01", to: "2026-11-30", channel: "email", templateKey: "welcome", templateVersion: 2 })).toMatchObject({
      from: "2026-11-01",
      channel: "email",
      templateVersion: 2,
    });
  });

  it("names the field of a bad filter", () => {
    const issues = (input: unknown) => AnalyticsFilterSchema.safeParse(input).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(issues({ from: "2026-11-31", to: "2026-12-01" })).toEqual(["from: is not a calendar date"]);
    expect(issues({ from: "2026-12-02", to: "2026-12-01" })).toEqual(["to: must not be before from"]);
    expect(issues({ from: "2020-01-01", to: "2026-12-01" })).toEqual(["to: a range spans at most 731 days"]);
    expect(issues({ from: "2026-12-01", to: "2026-12-01", channel: "fax" })).toEqual(['channel: "fax" is not a channel: use push, email or sms']);
    expect(issues({ from: "2026-12-01", to: "2026-12-01", templateVersion: 3 })).toEqual(["templateVersion: needs templateKey"]);
    expect(issues({ from: "1 Dec", to: "2026-12-01" })).toEqual(["from: must be a date as YYYY-MM-DD"]);
  });

  it("lists every day or every week's Monday of a range", () => {
    expect(bucketsBetween("2026-11-28", "2026-12-02", "day")).toEqual(["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01", "2026-12-02"]);
    // 2026-11-28 is a Saturday: its week starts on Monday the 23rd.
    expect(bucketsBetween("2026-11-28", "2026-12-08", "week")).toEqual(["2026-11-23", "2026-11-30", "2026-12-07"]);
    expect(weekStart("2026-11-30")).toBe("2026-11-30");
    expect(daysBetween("2026-10-01", "2026-12-30")).toBe(90);
  });

  it("knows which day an instant falls on in a time zone", () => {
    const instant = new Date("2026-11-30T23:30:00Z");
    expect(dayIn(instant, "UTC")).toBe("2026-11-30");
    expect(dayIn(instant, "Europe/Berlin")).toBe("2026-12-01");
    expect(dayIn(instant, "America/Los_Angeles")).toBe("2026-11-30");
  });
});
