import { describe, expect, it } from "vitest";
import { BroadcastInputSchema, BroadcastScheduleSchema } from "../../src/broadcasts/broadcast-input.ts";
import { checkBroadcastAction } from "../../src/broadcasts/broadcast-status.ts";

const valid = {
  name: "December sale",
  segmentId: "7",
  templateKey: "sale.december",
  variants: [{ version: 3, percent: 100 }],
  channels: ["email", "push"],
  category: "marketing",
  holdoutPercent: 10,
};

function issues(input: unknown): string[] {
  const parsed = BroadcastInputSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("BroadcastInputSchema", () => {
  it("accepts a broadcast and fills the defaults", () => {
    expect(BroadcastInputSchema.parse(valid)).toMatchObject({ lane: "bulk", throttlePerMinute: null, data: {} });
  });

  it("refuses variants that do not sum to 100 or repeat a version", () => {
    expect(issues({ ...valid, variants: [{ version: 1, percent: 50 }, { version: 2, percent: 40 }] })).toEqual(["variants: percentages must sum to 100 (they sum to 90)"]);
    expect(issues({ ...valid, variants: [{ version: 1, percent: 50 }, { version: 1, percent: 50 }] })).toEqual(["variants: each variant must be a different version"]);
  });

  it("refuses no channel, a repeated channel, an unknown one, and a holdout over 50 %", () => {
    expect(issues({ ...valid, channels: [] })).toEqual(["channels: choose at least one channel"]);
    expect(issues({ ...valid, channels: ["email", "email"] })).toEqual(["channels: a channel is listed twice"]);
    expect(issues({ ...valid, channels: ["fax"] })[0]).toMatch(/^channels.0: "fax" is not a channel/);
    expect(issues({ ...valid, holdoutPercent: 60 })[0]).toMatch(/^holdoutPercent: a holdout above 50 %/);
    expect(issues({ ...valid, holdoutPercent: 10.25 })[0]).toMatch(/^holdoutPercent: at most one decimal/);
  });

  it("refuses data over 32 KiB", () => {
    expect(issues({ ...valid, data: { blob: "x".repeat(33 * 1024) } })).toEqual(["data: must be at most 32 KiB"]);
  });
});

describe("BroadcastScheduleSchema", () => {
  it("takes now, an instant with its zone, or a local time", () => {
    expect(BroadcastScheduleSchema.parse({ kind: "now" })).toEqual({ kind: "now" });
    expect(BroadcastScheduleSchema.parse({ kind: "at", at: "2026-12-24T09:00:00+01:00", timezone: "Europe/Berlin" }).kind).toBe("at");
    expect(BroadcastScheduleSchema.parse({ kind: "local", localDateTime: "2026-12-24T09:00" }).kind).toBe("local");
  });

  it("refuses an unknown zone, an instant without offset and a malformed local time", () => {
    expect(BroadcastScheduleSchema.safeParse({ kind: "at", at: "2026-12-24T09:00:00+01:00", timezone: "Mars/Olympus" }).success).toBe(false);
    expect(BroadcastScheduleSchema.safeParse({ kind: "at", at: "2026-12-24T09:00:00", timezone: "UTC" }).success).toBe(false);
    expect(BroadcastScheduleSchema.safeParse({ kind: "local", localDateTime: "24.12.2026 09:00" }).success).toBe(false);
  });
});

describe("checkBroadcastAction", () => {
  it("allows each action only from its statuses, and says why not", () => {
    expect(checkBroadcastAction("pause", "sending")).toEqual({ ok: true });
    expect(checkBroadcastAction("edit", "sending")).toEqual({ ok: false, reason: "a broadcast can be edited only while draft; this one is sending" });
    expect(checkBroadcastAction("cancel", "sent").ok).toBe(false);
  });
});
