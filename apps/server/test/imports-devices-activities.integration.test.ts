import { deactivateDevice, findImport, listDevices, recordActivity, registerDevice, upsertUser } from "@herald/db";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { runImportSlice } from "../src/imports/import-runner.ts";
import { csvRow, runImport, uploadCsv } from "./support/imports.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery } from "./support/trpc-http.ts";

async function errorReport(server: { url: string }, cookie: string, id: string): Promise<string[][]> {
  const report = await fetch(`${server.url}/files/imports/${id}/errors.csv`, { headers: { cookie } });
  expect(report.status).toBe(200);
  return parse(await report.text(), { bom: true }) as string[][];
}

describe("CSV import of devices", () => {
  const server = useTestServer({ withWorkers: true });
  let cookie: string;
  const sql = () => server.database.pool;
  const MAPPING = { kind: "devices", userId: 0, token: 1, platform: { column: 2 } };
  const HEADER = ["user", "token", "platform"];

  // Good rows and one bad row of every kind the import refuses, each with the reason it must give.
  const ROWS: Array<{ cells: string[]; reason?: string }> = [
    { cells: ["u-1", "tok-new", "ios"] },
    { cells: ["u-2", "tok-shared", "Android"] },
    { cells: ["u-1", "tok-dead", "web"] },
    { cells: ["newcomer", "tok-newcomer", "ios"] },
    { cells: ["", "tok-x", "ios"], reason: "user id is empty" },
    { cells: ["u-1", "", "ios"], reason: "token is empty" },
    { cells: ["u-1", "t".repeat(4097), "ios"], reason: "token (4097 characters): must be at most 4,096 characters" },
    { cells: ["u-1", "tok-y", "windows"], reason: 'platform "windows": "windows" is not a platform: use ios, android or web' },
    { cells: ["u-3", "tok-new", "android"], reason: "duplicate token: first on row 2" },
    { cells: ["u\u0007", "tok-z", "ios"], reason: 'user id "u\\u0007": must not contain control characters or line breaks' },
  ];

  beforeAll(async () => {
    cookie = (await memberWithSession(server.database, "marketer")).cookie;
  });

  it("registers tokens as the API does: moved to the row's user, reactivated, users created; every bad row reported", async () => {
    await upsertUser(sql(), "u-1", {});
    await upsertUser(sql(), "u-2", {});
    await upsertUser(sql(), "owner", {});
    // A tablet that changes hands, and a token the client unregistered: the REST API moves the
    // first and reactivates the second, and so must the import.
    await registerDevice(sql(), "owner", "tok-shared", "ios");
    await registerDevice(sql(), "u-1", "tok-dead", "web");
    expect(await deactivateDevice(sql(), "u-1", "tok-dead", "unregistered_by_client")).toBe(true);

    const csv = csvRow(HEADER) + ROWS.map((r) => csvRow(r.cells)).join("");
    const id = (await uploadCsv(server, csv, { cookie, name: "devices.csv" })).body.import.id as string;
    const preview = await trpcQuery(server.url, "imports.preview", { id, mapping: MAPPING }, { cookie });
    expect(preview.error).toBeNull();
    expect(preview.data.rows.map((r: any) => (r.ok ? `${r.record.userId} ${r.record.platform} ${r.record.token}` : r.reason))).toEqual(
      ROWS.map((r) => r.reason ?? `${r.cells[0]} ${r.cells[2]!.toLowerCase()} ${r.cells[1]}`),
    );

    const done = await runImport(server.url, cookie, id, MAPPING);
    const bad = ROWS.filter((r) => r.reason).length;
    expect(done).toMatchObject({ status: "done", kind: "devices", importedRows: ROWS.length - bad, failedRows: bad, createdCount: 2, updatedCount: 2 });

    expect(await listDevices(sql(), "owner")).toEqual([]);
    expect(await listDevices(sql(), "u-2")).toMatchObject([{ token: "tok-shared", platform: "android", active: true, deactivatedReason: null, deactivatedAt: null }]);
    const u1 = await listDevices(sql(), "u-1");
    expect(u1.map((d) => [d.token, d.platform, d.active, d.deactivatedReason])).toEqual(
      expect.arrayContaining([
        ["tok-new", "ios", true, null],
        ["tok-dead", "web", true, null],
      ]),
    );
    expect(u1).toHaveLength(2);
    expect(await listDevices(sql(), "newcomer")).toMatchObject([{ token: "tok-newcomer", platform: "ios", active: true }]);
    // Refused rows registered nothing: no tok-x, tok-y, tok-z, and tok-new stayed with its first row's user.
    const { rows } = await sql().query("SELECT token FROM herald.devices ORDER BY token");
    expect(rows.map((r) => r.token)).toEqual(["tok-dead", "tok-new", "tok-newcomer", "tok-shared"]);
    const { rows: users } = await sql().query("SELECT external_id FROM herald.users WHERE external_id IN ('u-3', '') ");
    expect(users).toEqual([]);

    const lines = await errorReport(server, cookie, id);
    expect(lines[0]).toEqual(["row", "reason", ...HEADER]);
    expect(lines.slice(1)).toEqual(ROWS.flatMap((r, i) => (r.reason ? [[String(i + 2), r.reason, ...r.cells]] : [])));
  });

  it("imports the same file again to the same devices: nothing created, every token re-registered", async () => {
    const before = (await sql().query("SELECT d.token, u.external_id, d.platform, d.active FROM herald.devices d JOIN herald.users u ON u.id = d.user_id ORDER BY d.token")).rows;
    const csv = csvRow(HEADER) + ROWS.map((r) => csvRow(r.cells)).join("");
    const id = (await uploadCsv(server, csv, { cookie, name: "devices.csv" })).body.import.id as string;
    const done = await runImport(server.url, cookie, id, MAPPING);
    expect(done).toMatchObject({ status: "done", importedRows: 4, failedRows: 6, createdCount: 0, updatedCount: 4 });
    const after = (await sql().query("SELECT d.token, u.external_id, d.platform, d.active FROM herald.devices d JOIN herald.users u ON u.id = d.user_id ORDER BY d.token")).rows;
    expect(after).toEqual(before);
  });

  it("moves a token between users from one file to the next, and takes one platform for every row", async () => {
    const first = (await uploadCsv(server, "user,token\nalice,tab-1\n", { cookie, name: "a.csv" })).body.import.id as string;
    expect(await runImport(server.url, cookie, first, { kind: "devices", userId: 0, token: 1, platform: { fixed: "android" } })).toMatchObject({ createdCount: 1 });
    const second = (await uploadCsv(server, "user,token\nbob,tab-1\n", { cookie, name: "b.csv" })).body.import.id as string;
    expect(await runImport(server.url, cookie, second, { kind: "devices", userId: 0, token: 1, platform: { fixed: "web" } })).toMatchObject({ updatedCount: 1 });
    expect(await listDevices(sql(), "alice")).toEqual([]);
    expect(await listDevices(sql(), "bob")).toMatchObject([{ token: "tab-1", platform: "web", active: true }]);
  });
});

describe("CSV import of activities", () => {
  const server = useTestServer({ withWorkers: true });
  let cookie: string;
  const sql = () => server.database.pool;
  const HEADER = ["user", "activity", "occurred_at", "key", "properties"];
  const MAPPING = { kind: "activities", userId: 0, name: 1, occurredAt: 2, key: 3, properties: 4 };
  const future = new Date(Date.now() + 60 * 60_000).toISOString();

  const ROWS: Array<{ cells: string[]; reason?: string }> = [
    { cells: ["u-1", "session_completed", "2026-11-01T09:00:00+01:00", "s-1", '{"minutes":12}'] },
    { cells: ["u-1", "session_completed", "2026-11-02T09:00:00Z", "", ""] },
    { cells: ["u-1", "session_completed", "2026-11-02T09:00:00Z", "", ""] },
    { cells: ["newcomer", "signed_up", "2026-10-31T23:59:59.5-05:00", "", '{"plan":"pro","seats":3,"big":1e400}'] },
    { cells: ["u-1", "session_completed", "2026-11-03T09:00:00Z", "s-1", ""] },
    { cells: ["", "login", "2026-11-02T09:00:00Z", "", ""], reason: "user id is empty" },
    { cells: ["u-1", "", "2026-11-02T09:00:00Z", "", ""], reason: "activity name is empty" },
    { cells: ["u-1", "bad name", "2026-11-02T09:00:00Z", "", ""], reason: 'activity name "bad name": must be a name like session_completed' },
    { cells: ["u-1", "login", "2026-11-02 09:00", "", ""], reason: 'occurred at "2026-11-02 09:00": must be an ISO 8601 date-time such as 2026-11-30T12:00:00Z' },
    { cells: ["u-1", "login", "2026-11-02T09:00:00", "", ""], reason: 'occurred at "2026-11-02T09:00:00": must be an ISO 8601 date-time such as 2026-11-30T12:00:00Z' },
    { cells: ["u-1", "login", future, "", ""], reason: `occurred at "${future}": is more than 5 minutes in the future` },
    { cells: ["u-1", "login", "2026-11-02T09:00:00Z", "k".repeat(257), ""], reason: "activity key (257 characters): must be at most 256 characters" },
    { cells: ["u-1", "login", "2026-11-02T09:00:00Z", "", "{plan:pro}"], reason: 'properties "{plan:pro}": is not JSON: write an object such as {"plan":"pro"}' },
    { cells: ["u-1", "login", "2026-11-02T09:00:00Z", "", '"pro"'], reason: 'properties "\\"pro\\"": must be a JSON object such as {"plan":"pro"}' },
    // Postgres would refuse this number, and with it the whole chunk: refused as one row.
    { cells: ["u-1", "login", "2026-11-02T09:00:00Z", "", '{"n":1e131072}'], reason: 'properties "{\\"n\\":1e131072}": holds a number too large to store (1e131072): at most 1,000 digits and an exponent within ±999' },
    { cells: ["u-1", "login", "2026-11-02T09:00:00Z", "", '{"a":"\\u0000"}'], reason: 'properties "{\\"a\\":\\"\\\\u0000\\"}": holds a character Postgres cannot store (\\u0000 or a lone surrogate)' },
  ];
  const csv = csvRow(HEADER) + ROWS.map((r) => csvRow(r.cells)).join("");
  const bad = ROWS.filter((r) => r.reason).length;

  beforeAll(async () => {
    cookie = (await memberWithSession(server.database, "marketer")).cookie;
  });

  async function activities() {
    const { rows } = await sql().query(
      `SELECT u.external_id, a.name, a.activity_key, a.properties, a.occurred_at
         FROM herald.activities a JOIN herald.users u ON u.id = a.user_id ORDER BY a.occurred_at, a.name`,
    );
    return rows;
  }

  it("records the good rows at their UTC instants, once per key, creating unseen users; every bad row reported", async () => {
    await upsertUser(sql(), "u-1", {});
    const id = (await uploadCsv(server, csv, { cookie, name: "activities.csv" })).body.import.id as string;
    const preview = await trpcQuery(server.url, "imports.preview", { id, mapping: MAPPING }, { cookie });
    expect(preview.data.rows.map((r: any) => (r.ok ? null : r.reason))).toEqual(ROWS.map((r) => r.reason ?? null));
    expect(preview.data.rows[3].record).toEqual({
      kind: "activities",
      userId: "newcomer",
      name: "signed_up",
      occurredAt: "2026-11-01T04:59:59.500Z",
      key: null,
      properties: { plan: "pro", seats: 3, big: null },
    });

    const done = await runImport(server.url, cookie, id, MAPPING);
    // Row 4 repeats row 3 word for word (same derived key), row 6 reuses row 2's key "s-1".
    expect(done).toMatchObject({ status: "done", kind: "activities", importedRows: ROWS.length - bad, failedRows: bad, createdCount: 3, updatedCount: 2 });
    const stored = await activities();
    expect(stored.map((a) => [a.external_id, a.name, a.occurred_at.toISOString(), a.properties])).toEqual([
      ["newcomer", "signed_up", "2026-11-01T04:59:59.500Z", { plan: "pro", seats: 3, big: Number.POSITIVE_INFINITY }],
      ["u-1", "session_completed", "2026-11-01T08:00:00.000Z", { minutes: 12 }],
      ["u-1", "session_completed", "2026-11-02T09:00:00.000Z", {}],
    ]);
    expect(stored[1].activity_key).toBe("s-1");
    // A number JavaScript holds only as Infinity is stored as written: Postgres read the cell, not a re-encoding of it.
    const { rows: big } = await sql().query("SELECT a.properties ->> 'big' AS big FROM herald.activities a WHERE a.name = 'signed_up'");
    expect(big[0].big).toBe(`1${"0".repeat(400)}`);
    expect(stored[2].activity_key).toMatch(/^import:[0-9a-f]{64}$/);

    const lines = await errorReport(server, cookie, id);
    expect(lines.slice(1)).toEqual(ROWS.flatMap((r, i) => (r.reason ? [[String(i + 2), r.reason, ...r.cells]] : [])));
  });

  it("imports the same file again without doubling a single activity, and the per-user summaries count each one once", async () => {
    const before = await activities();
    const id = (await uploadCsv(server, csv, { cookie, name: "activities.csv" })).body.import.id as string;
    const done = await runImport(server.url, cookie, id, MAPPING);
    expect(done).toMatchObject({ status: "done", importedRows: ROWS.length - bad, failedRows: bad, createdCount: 0, updatedCount: ROWS.length - bad });
    expect(await activities()).toEqual(before);
    // herald.activity_summaries is kept by statement-level triggers with transition tables:
    // the import's plain INSERTs reach them, and rows skipped as already recorded do not.
    const { rows } = await sql().query(
      `SELECT u.external_id, s.name, s.count::int, s.first_at, s.last_at
         FROM herald.activity_summaries s JOIN herald.users u ON u.id = s.user_id ORDER BY 1, 2`,
    );
    expect(rows).toEqual([
      { external_id: "newcomer", name: "signed_up", count: 1, first_at: new Date("2026-11-01T04:59:59.500Z"), last_at: new Date("2026-11-01T04:59:59.500Z") },
      { external_id: "u-1", name: "session_completed", count: 2, first_at: new Date("2026-11-01T08:00:00Z"), last_at: new Date("2026-11-02T09:00:00Z") },
    ]);
  });

  it("shares activity keys with the REST API: an activity posted with an id is not imported again", async () => {
    const { rows: keys } = await sql().query("SELECT count(*)::int AS n FROM herald.activities");
    // What POST /users/u-1/activities with { id: "api-7" } stores.
    expect(await recordActivity(sql(), "u-1", { id: "api-7", name: "purchase", occurredAt: "2026-11-05T10:00:00Z" })).toBe(true);
    const file = csvRow(HEADER) + csvRow(["u-1", "purchase", "2026-11-05T10:00:00Z", "api-7", ""]) + csvRow(["u-1", "purchase", "2026-11-06T10:00:00Z", "api-8", ""]);
    const id = (await uploadCsv(server, file, { cookie, name: "purchases.csv" })).body.import.id as string;
    expect(await runImport(server.url, cookie, id, MAPPING)).toMatchObject({ importedRows: 2, createdCount: 1, updatedCount: 1 });
    const { rows } = await sql().query("SELECT count(*)::int AS n FROM herald.activities");
    expect(rows[0].n).toBe(keys[0].n + 2);
  });

  it("maps only the required columns: no key, no properties", async () => {
    const file = "who,what,when\nu-9,opened_app,2026-11-07T08:00:00+02:00\nu-9,opened_app,2026-11-07T08:00:00+02:00\n";
    const id = (await uploadCsv(server, file, { cookie, name: "opens.csv" })).body.import.id as string;
    expect(await runImport(server.url, cookie, id, { kind: "activities", userId: 0, name: 1, occurredAt: 2 })).toMatchObject({ importedRows: 2, createdCount: 1, updatedCount: 1 });
    const { rows } = await sql().query(
      "SELECT a.occurred_at, a.properties FROM herald.activities a JOIN herald.users u ON u.id = a.user_id WHERE u.external_id = 'u-9'",
    );
    expect(rows).toEqual([{ occurred_at: new Date("2026-11-07T06:00:00Z"), properties: {} }]);
  });
});

describe("the import task on activities", () => {
  // No workers: the test runs the slices itself.
  const server = useTestServer();
  let cookie: string;
  const sql = () => server.database.pool;
  const ACTIVITY_HEADER = ["user", "activity", "occurred_at", "key", "properties"];
  const ACTIVITY_MAPPING = { kind: "activities", userId: 0, name: 1, occurredAt: 2, key: 3, properties: 4 };

  beforeAll(async () => {
    cookie = (await memberWithSession(server.database, "marketer")).cookie;
  });

  it("applies chunk by chunk: each chunk's good rows once, its bad rows reported, none of another chunk's rows", async () => {
    const cells = (i: number) => ["chunky", i === 3 ? "bad name" : "tick", `2026-11-0${i}T00:00:00Z`, `c-${i}`, ""];
    const file = csvRow(ACTIVITY_HEADER) + Array.from({ length: 7 }, (_, i) => csvRow(cells(i + 1))).join("");
    const id = (await uploadCsv(server, file, { cookie, name: "chunks.csv" })).body.import.id as string;
    expect((await trpcMutation(server.url, "imports.start", { id, mapping: ACTIVITY_MAPPING }, { cookie })).error).toBeNull();
    const counted: Array<[number, number]> = [];
    for (let outcome = ""; outcome !== "done"; ) {
      outcome = await runImportSlice(sql(), id, { chunkRows: 3, sliceMs: 0 });
      const { rows } = await sql().query(
        "SELECT count(*)::int AS n FROM herald.activities a JOIN herald.users u ON u.id = a.user_id WHERE u.external_id = 'chunky'",
      );
      counted.push([(await findImport(sql(), id))!.processedRows, rows[0].n]);
    }
    expect(counted).toEqual([
      [3, 2],
      [6, 5],
      [7, 6],
    ]);
    expect(await findImport(sql(), id)).toMatchObject({ status: "done", importedRows: 6, failedRows: 1, createdCount: 6 });
  });
});
