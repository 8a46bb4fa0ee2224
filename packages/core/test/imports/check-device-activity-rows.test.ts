import { describe, expect, it } from "vitest";
import { createRowChecker } from "../../src/imports/check-import-row.ts";
import { ImportMappingSchema, mappingProblem, uniqueColumn } from "../../src/imports/import-mapping.ts";

const NOW = new Date("2026-11-30T12:00:00Z");

describe("a devices import row", () => {
  const byColumn = createRowChecker({ kind: "devices", userId: 0, token: 1, platform: { column: 2 } }, ["user", "token", "platform"], NOW);
  const fixed = createRowChecker({ kind: "devices", userId: 0, token: 1, platform: { fixed: "ios" } }, ["user", "token"], NOW);

  it("is a user's token on a platform, read case-blind", () => {
    expect(byColumn([" u-1 ", " fcm-token-1 ", "Android"])).toEqual({ ok: true, record: { kind: "devices", userId: "u-1", token: "fcm-token-1", platform: "android" } });
    expect(fixed(["u-2", "apns-1"])).toEqual({ ok: true, record: { kind: "devices", userId: "u-2", token: "apns-1", platform: "ios" } });
  });

  it.each([
    [["", "t", "ios"], "user id is empty"],
    [["u\u0007", "t", "ios"], 'user id "u\\u0007": must not contain control characters or line breaks'],
    [["u-1", "", "ios"], "token is empty"],
    [["u-1", " \t ", "ios"], "token is empty"],
    [["u-1", "t".repeat(4097), "ios"], "token (4097 characters): must be at most 4,096 characters"],
    [["u-1", "t", "windows"], 'platform "windows": "windows" is not a platform: use ios, android or web'],
    [["u-1", "t", ""], "platform is empty"],
  ])("%j is refused: %s", (cells, reason) => {
    expect(byColumn(cells)).toEqual({ ok: false, reason });
  });

  it("accepts a token of exactly 4,096 characters, as the API does", () => {
    expect(byColumn(["u-1", "t".repeat(4096), "web"])).toMatchObject({ ok: true });
  });
});

describe("an activities import row", () => {
  const header = ["user", "name", "at", "key", "properties"];
  const check = createRowChecker({ kind: "activities", userId: 0, name: 1, occurredAt: 2, key: 3, properties: 4 }, header, NOW);
  const bare = createRowChecker({ kind: "activities", userId: 0, name: 1, occurredAt: 2 }, header, NOW);

  it("is a user's activity at a UTC instant, with its key and properties", () => {
    expect(check(["u-1", "session_completed", "2026-11-30T09:00:00+01:00", "act-1", ' {"minutes": 12, "tags": ["a"]} '])).toEqual({
      ok: true,
      record: {
        kind: "activities",
        userId: "u-1",
        name: "session_completed",
        occurredAt: "2026-11-30T08:00:00.000Z",
        key: "act-1",
        properties: { minutes: 12, tags: ["a"] },
      },
    });
    expect(check(["u-1", "checkout:done", "2026-11-30T12:04:59Z", "", ""])).toMatchObject({ ok: true, record: { key: null, properties: {} } });
    expect(bare(["u-1", "login", "2026-01-01T00:00:00.123456Z", "ignored", "ignored"])).toMatchObject({
      ok: true,
      record: { occurredAt: "2026-01-01T00:00:00.123Z", key: null, properties: {} },
    });
  });

  it.each([
    [["", "login", "2026-11-30T09:00:00Z", "", ""], "user id is empty"],
    [["u-1", "", "2026-11-30T09:00:00Z", "", ""], "activity name is empty"],
    [["u-1", "9lives", "2026-11-30T09:00:00Z", "", ""], 'activity name "9lives": must be a name like session_completed'],
    [["u-1", "login", "", "", ""], "occurred at is empty"],
    // No offset: whose clock? Refused, as the API refuses it.
    [["u-1", "login", "2026-11-30T09:00:00", "", ""], 'occurred at "2026-11-30T09:00:00": must be an ISO 8601 date-time such as 2026-11-30T12:00:00Z'],
    [["u-1", "login", "2026-11-30", "", ""], 'occurred at "2026-11-30": must be an ISO 8601 date-time such as 2026-11-30T12:00:00Z'],
    [["u-1", "login", "30/11/2026 09:00", "", ""], 'occurred at "30/11/2026 09:00": must be an ISO 8601 date-time such as 2026-11-30T12:00:00Z'],
    [["u-1", "login", "2026-02-30T09:00:00Z", "", ""], 'occurred at "2026-02-30T09:00:00Z": must be an ISO 8601 date-time such as 2026-11-30T12:00:00Z'],
    [["u-1", "login", "2026-11-30T09:00:00+16:00", "", ""], 'occurred at "2026-11-30T09:00:00+16:00": must be a date-time from year 0001 to 9999 with an offset of at most ±15:59'],
    // Five minutes of skew are allowed (12:05:00 passes); a second more is the future.
    [["u-1", "login", "2026-11-30T12:05:01Z", "", ""], 'occurred at "2026-11-30T12:05:01Z": is more than 5 minutes in the future'],
    [["u-1", "login", "2026-11-30T14:00:00+01:00", "", ""], 'occurred at "2026-11-30T14:00:00+01:00": is more than 5 minutes in the future'],
    [["u-1", "login", "2026-11-30T09:00:00Z", "k".repeat(257), ""], "activity key (257 characters): must be at most 256 characters"],
    [["u-1", "login", "2026-11-30T09:00:00Z", "", "{minutes: 12}"], 'properties "{minutes: 12}": is not JSON: write an object such as {"plan":"pro"}'],
    [["u-1", "login", "2026-11-30T09:00:00Z", "", "[1,2]"], 'properties "[1,2]": must be a JSON object such as {"plan":"pro"}'],
    [["u-1", "login", "2026-11-30T09:00:00Z", "", "null"], 'properties "null": must be a JSON object such as {"plan":"pro"}'],
    [["u-1", "login", "2026-11-30T09:00:00Z", "", '{"a":"x\\u0000y"}'], 'properties "{\\"a\\":\\"x\\\\u0000y\\"}": holds a character Postgres cannot store (\\u0000 or a lone surrogate)'],
    [["u-1", "login", "2026-11-30T09:00:00Z", "", '{"\\ud800":1}'], 'properties "{\\"\\\\ud800\\":1}": holds a character Postgres cannot store (\\u0000 or a lone surrogate)'],
  ])("%j is refused: %s", (cells, reason) => {
    expect(check(cells)).toEqual({ ok: false, reason });
  });

  it("refuses a number Postgres would overflow on, and keeps one JavaScript cannot hold exactly", () => {
    expect(check(["u-1", "login", "2026-11-30T09:00:00Z", "", '{"big":1e131072}'])).toEqual({
      ok: false,
      reason: 'properties "{\\"big\\":1e131072}": holds a number too large to store (1e131072): at most 1,000 digits and an exponent within ±999',
    });
    const digits = "9".repeat(1001);
    expect(check(["u-1", "login", "2026-11-30T09:00:00Z", "", `{"n":[1,${digits}]}`])).toMatchObject({
      ok: false,
      reason: expect.stringContaining(`holds a number too large to store (${"9".repeat(20)}…)`),
    });
    expect(check(["u-1", "login", "2026-11-30T09:00:00Z", "", '{"big":1e400,"small":-2.5E-999}'])).toMatchObject({ ok: true });
  });

  it("accepts the last instant within the skew, and refuses properties nested too deep", () => {
    expect(check(["u-1", "login", "2026-11-30T12:05:00Z", "", ""])).toMatchObject({ ok: true });
    const deep = `${'{"a":'.repeat(33)}1${"}".repeat(33)}`;
    expect(check(["u-1", "login", "2026-11-30T09:00:00Z", "", deep])).toEqual({ ok: false, reason: `properties (${deep.length} characters): is nested deeper than 32 levels` });
    const fine = `${'{"a":'.repeat(32)}1${"}".repeat(32)}`;
    expect(check(["u-1", "login", "2026-11-30T09:00:00Z", "", fine])).toMatchObject({ ok: true });
  });
});

describe("a devices or activities mapping", () => {
  it("reads each column once and only columns the file has", () => {
    const twice = ImportMappingSchema.safeParse({ kind: "activities", userId: 0, name: 1, occurredAt: 1 });
    expect(twice.error!.issues[0]).toMatchObject({ path: ["occurredAt"], message: "column 2 is already mapped to name" });
    const platform = ImportMappingSchema.safeParse({ kind: "devices", userId: 0, token: 1, platform: { column: 0 } });
    expect(platform.error!.issues[0]).toMatchObject({ path: ["platform", "column"], message: "column 1 is already mapped to userId" });
    const badPlatform = ImportMappingSchema.safeParse({ kind: "devices", userId: 0, token: 1, platform: { fixed: "windows" } });
    expect(badPlatform.success).toBe(false);
    const mapping = ImportMappingSchema.parse({ kind: "activities", userId: 0, name: 1, occurredAt: 2, properties: 5 });
    expect(mappingProblem(mapping, ["a", "b", "c"])).toBe("properties: column 6 does not exist; the file has 3 columns");
  });

  it("names the column a file may hold once: a device's token, none for activities", () => {
    expect(uniqueColumn({ kind: "devices", userId: 0, token: 3, platform: { fixed: "web" } })).toEqual({ column: 3, label: "token" });
    expect(uniqueColumn({ kind: "users", fields: { externalId: 2 }, attributes: [] })).toEqual({ column: 2, label: "external id" });
    expect(uniqueColumn({ kind: "activities", userId: 0, name: 1, occurredAt: 2 })).toBeNull();
  });
});
