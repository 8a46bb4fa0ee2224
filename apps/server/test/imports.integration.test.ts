import { findImport, findUser, upsertCategory, upsertUser } from "@herald/db";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { runImportSlice } from "../src/imports/import-runner.ts";
import { importCsvTask } from "../src/tasks/import-csv.ts";
import { csvRow, runImport, uploadCsv } from "./support/imports.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery } from "./support/trpc-http.ts";

const HEADER = ["id", "email", "phone", "tz", "locale", "plan", "score", "vip", "signed_up"];
const USERS_MAPPING = {
  kind: "users",
  fields: { externalId: 0, email: 1, phone: 2, timezone: 3, locale: 4 },
  attributes: [
    { column: 5, name: "plan", type: "string" },
    { column: 6, name: "score", type: "number" },
    { column: 7, name: "vip", type: "boolean" },
    { column: 8, name: "signed_up", type: "date" },
  ],
};

// Good rows, and one bad row of every kind the import refuses, each with the reason it must give.
const ROWS: Array<{ cells: string[]; reason?: string }> = [
  { cells: ["u-1", "Ada@Example.com", "+49 151 1234 5678", "Europe/Berlin", "de-de", "pro", "12.5", "yes", "2026-01-31"] },
  { cells: ["u-2", "not-an-email", "", "", "", "", "", "", ""], reason: 'email "not-an-email": must be an email address' },
  { cells: ["u-3", "", "0151 1234", "", "", "", "", "", ""], reason: 'phone "01511234": must be an E.164 phone number such as +4915112345678' },
  { cells: ["u-1", "again@example.com", "", "", "", "", "", "", ""], reason: "duplicate external id: first on row 2" },
  { cells: ["u-4", "", "", "", "", "p".repeat(2001), "", "", ""], reason: 'attribute "plan" must be at most 2000 characters' },
  { cells: ["u-5", "", "", "Mars/Olympus", "", "", "", "", ""], reason: 'timezone "Mars/Olympus": "Mars/Olympus" is not an IANA time zone such as "Europe/Berlin"' },
  { cells: ["u-6", "", "", "", "", "", "12,5", "", ""], reason: 'attribute "score" "12,5": is not a number such as 42 or -3.5' },
  { cells: ["u-7", "", "", "", "", "", "", "", "31/01/2026"], reason: 'attribute "signed_up" "31/01/2026": is not a date such as 2026-11-30 or 2026-11-30T09:00:00Z' },
  { cells: ["existing", "", "", "", "", "Smith, Jr.\nthe second", "", "no", ""] },
  { cells: ["", "nobody@example.com", "", "", "", "", "", "", ""], reason: "external id is empty" },
  { cells: ["x".repeat(257), "", "", "", "", "", "", "", ""], reason: "external id (257 characters): must be at most 256 characters" },
  { cells: ["u-8", "u8@example.com", "", "", "", "", "", "", ""] },
];

describe("CSV import over HTTP", () => {
  const server = useTestServer({ withWorkers: true, env: { HERALD_IMPORT_MAX_MIB: "1" } });
  let cookie: string;

  beforeAll(async () => {
    cookie = (await memberWithSession(server.database, "marketer")).cookie;
  });

  it("uploads, previews, imports the good rows and reports every bad row with its reason", async () => {
    await upsertUser(server.database.pool, "existing", { email: "kept@example.com", attributes: { tier: "gold", plan: "free" } });
    const csv = csvRow(HEADER) + ROWS.map((r) => csvRow(r.cells)).join("");
    const upload = await uploadCsv(server, csv, { cookie, name: "people.csv" });
    expect(upload.status).toBe(201);
    expect(upload.body.import).toMatchObject({ fileName: "people.csv", totalRows: ROWS.length, header: HEADER, byteSize: Buffer.byteLength(csv) });
    const id = upload.body.import.id as string;

    const got = await trpcQuery(server.url, "imports.get", { id }, { cookie });
    expect(got.data).toMatchObject({ status: "uploaded", delimiter: ",", totalRows: ROWS.length, mapping: null });
    expect(got.data.sample).toHaveLength(ROWS.length);
    expect(got.data.sample[8]).toEqual(ROWS[8]!.cells);

    const preview = await trpcQuery(server.url, "imports.preview", { id, mapping: USERS_MAPPING }, { cookie });
    expect(preview.error).toBeNull();
    expect(preview.data.rows[0]).toMatchObject({
      row: 2,
      ok: true,
      record: { externalId: "u-1", email: "ada@example.com", phone: "+4915112345678", timezone: "Europe/Berlin", locale: "de-DE", attributes: { plan: "pro", score: 12.5, vip: true, signed_up: "2026-01-31" } },
    });
    expect(preview.data.rows.map((r: any) => (r.ok ? null : r.reason))).toEqual(ROWS.map((r) => r.reason ?? null));

    const done = await runImport(server.url, cookie, id, USERS_MAPPING);
    const bad = ROWS.filter((r) => r.reason).length;
    expect(done).toMatchObject({ status: "done", kind: "users", processedRows: ROWS.length, importedRows: ROWS.length - bad, failedRows: bad, createdCount: 2, updatedCount: 1 });

    expect(await findUser(server.database.pool, "u-1")).toMatchObject({
      email: "ada@example.com",
      phone: "+4915112345678",
      timezone: "Europe/Berlin",
      locale: "de-DE",
      attributes: { plan: "pro", score: 12.5, vip: true, signed_up: "2026-01-31" },
    });
    // Merged: empty cells keep what was stored, attributes not in the file stay.
    expect(await findUser(server.database.pool, "existing")).toMatchObject({
      email: "kept@example.com",
      attributes: { tier: "gold", plan: "Smith, Jr.\nthe second", vip: false },
    });
    for (const refused of ["u-2", "u-3", "u-4", "u-5", "u-6", "u-7"]) expect(await findUser(server.database.pool, refused)).toBeNull();
    // The first u-1 row won; its duplicate changed nothing.
    expect((await findUser(server.database.pool, "u-1"))?.email).toBe("ada@example.com");

    const errors = await trpcQuery(server.url, "imports.errors", { id, limit: 3 }, { cookie });
    expect(errors.data.items.map((e: any) => [e.row, e.reason])).toEqual([
      [3, ROWS[1]!.reason],
      [4, ROWS[2]!.reason],
      [5, ROWS[3]!.reason],
    ]);
    expect(errors.data.nextCursor).toBe(5);

    const report = await fetch(`${server.url}/files/imports/${id}/errors.csv`, { headers: { cookie } });
    expect(report.status).toBe(200);
    expect(report.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(report.headers.get("content-disposition")).toBe('attachment; filename="people-errors.csv"');
    const lines = parse(await report.text(), { bom: true }) as string[][];
    expect(lines[0]).toEqual(["row", "reason", ...HEADER]);
    const expected = ROWS.flatMap((r, i) => (r.reason ? [[String(i + 2), r.reason, ...r.cells]] : []));
    expect(lines.slice(1)).toEqual(expected);
  });

  it("refuses a second start, a mapping past the header, and a bad mapping, naming the field", async () => {
    const upload = await uploadCsv(server, "id;email\nu-9;u9@example.com\n", { cookie });
    expect(upload.status).toBe(201);
    const id = upload.body.import.id;
    expect((await trpcQuery(server.url, "imports.get", { id }, { cookie })).data.delimiter).toBe(";");

    const outside = await trpcMutation(server.url, "imports.start", { id, mapping: { kind: "users", fields: { externalId: 0, email: 2 }, attributes: [] } }, { cookie });
    expect(outside.error?.data.code).toBe("BAD_REQUEST");
    expect(outside.error?.message).toBe("mapping.fields.email: column 3 does not exist; the file has 2 columns");

    const noId = await trpcMutation(server.url, "imports.start", { id, mapping: { kind: "users", fields: { email: 1 }, attributes: [] } }, { cookie });
    expect(noId.error?.data.code).toBe("BAD_REQUEST");
    expect(noId.error?.message).toContain("mapping.fields.externalId");

    const mapping = { kind: "users", fields: { externalId: 0, email: 1 }, attributes: [] };
    expect((await runImport(server.url, cookie, id, mapping)).importedRows).toBe(1);
    const again = await trpcMutation(server.url, "imports.start", { id, mapping }, { cookie });
    expect(again.error?.data.code).toBe("CONFLICT");
  });

  it("imports suppressions: new addresses with reason import, an already suppressed address keeps its reason", async () => {
    await server.database.pool.query(
      "INSERT INTO herald.suppressions (channel, address, reason, source) VALUES ('email', 'bounced@example.com', 'hard_bounce', 'ses')",
    );
    const csv = "address,channel\nGone@Example.com,email\n+1 415 555 0100,sms\nbounced@example.com,email\nnot-an-address,email\nsomeone@example.com,push\n";
    const id = (await uploadCsv(server, csv, { cookie, name: "suppressions.csv" })).body.import.id;
    const done = await runImport(server.url, cookie, id, { kind: "suppressions", address: 0, channel: { column: 1 } });
    expect(done).toMatchObject({ status: "done", importedRows: 3, failedRows: 2, createdCount: 2, updatedCount: 1 });
    const { rows } = await server.database.pool.query("SELECT channel, address, reason FROM herald.suppressions ORDER BY channel, address");
    expect(rows).toEqual([
      { channel: "email", address: "bounced@example.com", reason: "hard_bounce" },
      { channel: "email", address: "gone@example.com", reason: "import" },
      { channel: "sms", address: "+14155550100", reason: "import" },
    ]);
    const errors = await trpcQuery(server.url, "imports.errors", { id }, { cookie });
    expect(errors.data.items.map((e: any) => e.reason)).toEqual(['email address "not-an-address": must be an email address', 'channel "push": must be email or sms']);
  });

  it("imports opt-outs: preferences off with source import, users created bare, unknown and mandatory categories refused", async () => {
    await upsertCategory(server.database.pool, "marketing", { label: "Marketing", aliases: ["promo"] });
    await upsertCategory(server.database.pool, "security", { label: "Security", mandatory: true });
    const csv = "user,category,channel\nu-1,marketing,email\nnew-user,promo,all\nu-1,security,email\nu-1,nothing,sms\nu-1,marketing,fax\n";
    const id = (await uploadCsv(server, csv, { cookie, name: "opt-outs.csv" })).body.import.id;

    const preview = await trpcQuery(server.url, "imports.preview", { id, mapping: { kind: "opt_outs", userId: 0, category: { column: 1 }, channel: { column: 2 } } }, { cookie });
    expect(preview.data.rows.map((r: any) => (r.ok ? `${r.record.userId} ${r.record.category} ${r.record.channels.join("+")}` : r.reason))).toEqual([
      "u-1 marketing email",
      "new-user marketing push+email+sms",
      'category "security" is mandatory: nobody can opt out of it',
      'category "nothing" does not exist',
      'channel "fax": "fax" is not a channel: use push, email or sms (or all)',
    ]);

    const done = await runImport(server.url, cookie, id, { kind: "opt_outs", userId: 0, category: { column: 1 }, channel: { column: 2 } });
    expect(done).toMatchObject({ status: "done", importedRows: 2, failedRows: 3, createdCount: 4 });
    const { rows } = await server.database.pool.query(
      `SELECT u.external_id, p.category, p.channel, p.enabled, p.source FROM herald.preferences p JOIN herald.users u ON u.id = p.user_id
        ORDER BY u.external_id, p.channel`,
    );
    expect(rows).toEqual([
      { external_id: "new-user", category: "marketing", channel: "email", enabled: false, source: "import" },
      { external_id: "new-user", category: "marketing", channel: "push", enabled: false, source: "import" },
      { external_id: "new-user", category: "marketing", channel: "sms", enabled: false, source: "import" },
      { external_id: "u-1", category: "marketing", channel: "email", enabled: false, source: "import" },
    ]);
  });

  it("lists imports newest first and discards a finished one with its error report", async () => {
    const list = await trpcQuery(server.url, "imports.list", { limit: 2 }, { cookie });
    expect(list.data.items.map((i: any) => i.fileName)).toEqual(["opt-outs.csv", "suppressions.csv"]);
    expect(list.data.items[0].createdBy).toMatch(/^marketer /);
    expect(list.data.maxFileBytes).toBe(1024 * 1024);
    const next = await trpcQuery(server.url, "imports.list", { limit: 10, cursor: list.data.nextCursor }, { cookie });
    expect(next.data.items.map((i: any) => i.fileName)).toEqual(["people.csv", "people.csv"]);
    expect(next.data.nextCursor).toBeNull();

    const id = list.data.items[0].id;
    expect((await trpcMutation(server.url, "imports.discard", { id }, { cookie })).error).toBeNull();
    expect((await trpcQuery(server.url, "imports.get", { id }, { cookie })).error?.data.code).toBe("NOT_FOUND");
    const { rows } = await server.database.pool.query("SELECT count(*)::int AS n FROM herald.import_rows WHERE import_id = $1", [id]);
    expect(rows[0].n).toBe(0);
  });

  it("previews the first 20 rows of a longer file, and keeps them as its sample", async () => {
    const csv = `id,email\n${Array.from({ length: 25 }, (_, i) => `long-${i + 1},long-${i + 1}@example.com`).join("\n")}\n`;
    const upload = await uploadCsv(server, csv, { cookie, name: "long.csv" });
    expect(upload.body.import.totalRows).toBe(25);
    const id = upload.body.import.id as string;
    expect((await trpcQuery(server.url, "imports.get", { id }, { cookie })).data.sample).toHaveLength(20);
    const preview = await trpcQuery(server.url, "imports.preview", { id, mapping: { kind: "users", fields: { externalId: 0, email: 1 }, attributes: [] } }, { cookie });
    expect(preview.data.rows.map((r: any) => r.record.externalId)).toEqual(Array.from({ length: 20 }, (_, i) => `long-${i + 1}`));
  });
});

describe("the upload refuses", () => {
  const server = useTestServer({ env: { HERALD_IMPORT_MAX_MIB: "1" } });
  let cookie: string;
  const csv = "id,email\nu-1,a@example.com\n";

  beforeAll(async () => {
    cookie = (await memberWithSession(server.database, "admin")).cookie;
  });

  async function importCount(): Promise<number> {
    const { rows } = await server.database.pool.query("SELECT (SELECT count(*) FROM herald.imports) + (SELECT count(*) FROM herald.import_rows) AS n");
    return Number(rows[0].n);
  }

  it("a request without an Origin, or from another origin (CSRF)", async () => {
    const none = await uploadCsv(server, csv, { cookie, origin: null });
    expect(none).toMatchObject({ status: 403, body: { error: { code: "bad_origin", message: "Uploads must come from the dashboard: the request has no Origin header" } } });
    const other = await uploadCsv(server, csv, { cookie, origin: "https://evil.example" });
    expect(other.status).toBe(403);
    expect(other.body.error.message).toContain("Uploads from https://evil.example are not allowed");
    expect(await importCount()).toBe(0);
  });

  it("a signed-out request, and a role without audience.import", async () => {
    expect(await uploadCsv(server, csv)).toMatchObject({ status: 401, body: { error: { code: "unauthorized" } } });
    const viewer = (await memberWithSession(server.database, "viewer")).cookie;
    const forbidden = await uploadCsv(server, csv, { cookie: viewer });
    expect(forbidden).toMatchObject({ status: 403, body: { error: { code: "forbidden", message: "Your role (viewer) may not import (audience.import)" } } });
    const report = await fetch(`${server.url}/files/imports/1/errors.csv`);
    expect(report.status).toBe(401);
    expect(await importCount()).toBe(0);
  });

  it("a body that is not text/csv", async () => {
    const json = await uploadCsv(server, csv, { cookie, contentType: "application/json" });
    expect(json).toMatchObject({ status: 415, body: { error: { code: "unsupported_media_type" } } });
  });

  it("a file over the limit with 413, whether announced by Content-Length or only streamed, and writes nothing", async () => {
    const big = csvRow(["id", "note"]) + Array.from({ length: 12_000 }, (_, i) => csvRow([`u-${i}`, "x".repeat(90)])).join("");
    expect(Buffer.byteLength(big)).toBeGreaterThan(1024 * 1024);
    const announced = await uploadCsv(server, big, { cookie });
    expect(announced.status).toBe(413);
    expect(announced.body.error).toEqual({ code: "payload_too_large", message: expect.stringMatching(/^The file \(1\.\d MiB\) is larger than the import limit of 1 MiB/) });

    // Chunked: the limit is found while streaming, after rows were already COPYed, and rolled back.
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.subarray(at, at + 64 * 1024));
        controller.close();
      },
    });
    const streamed = await uploadCsv(server, stream, { cookie });
    expect(streamed.status).toBe(413);
    expect(streamed.body.error.message).toBe("The file is larger than the import limit of 1 MiB (HERALD_IMPORT_MAX_MIB)");
    expect(await importCount()).toBe(0);
  });

  it.each([
    ["", "The file is empty"],
    ["id,email\n", "The file has a header but no rows"],
    [",,\nu-1,a,b\n", "The first row must name the columns, but it is empty"],
    ['id,email\n"u-1,a@example.com\n', "The file is not valid CSV: "],
    [Buffer.from([0xff, 0xfe, 0x69, 0x00, 0x64, 0x00]), "The file is UTF-16 text"],
    [Buffer.from("id,name\nu-1,M\xfcller\n", "latin1"), "The file is not UTF-8 text"],
    [Buffer.from("PK\x03\x04rest-of-a-zip", "latin1"), "This is a spreadsheet workbook (.xlsx), not CSV"],
    [`${Array.from({ length: 501 }, (_, i) => `c${i}`).join(",")}\n${"x,".repeat(500)}x\n`, "The file has 501 columns; an import reads at most 500"],
  ])("an unreadable file (%#) with 400 and what to do about it", async (body, message) => {
    const refused = await uploadCsv(server, body as NonNullable<RequestInit["body"]>, { cookie });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("invalid_request");
    expect(refused.body.error.message).toContain(message);
    expect(await importCount()).toBe(0);
  });
});

describe("the import task", () => {
  const server = useTestServer();
  let cookie: string;

  beforeAll(async () => {
    cookie = (await memberWithSession(server.database, "marketer")).cookie;
  });

  it("resumes after the last committed chunk, one chunk per slice, and never applies a row twice", async () => {
    const csv = csvRow(["id", "visits"]) + Array.from({ length: 10 }, (_, i) => csvRow([`r-${i}`, i === 4 ? "many" : String(i)])).join("");
    const id = (await uploadCsv(server, csv, { cookie })).body.import.id as string;
    const mapping = { kind: "users", fields: { externalId: 0 }, attributes: [{ column: 1, name: "visits", type: "number" }] };
    expect((await trpcMutation(server.url, "imports.start", { id, mapping }, { cookie })).error).toBeNull();
    const budget = { chunkRows: 3, sliceMs: 0 };

    const progress: number[] = [];
    for (let outcome = ""; outcome !== "done"; ) {
      outcome = await runImportSlice(server.database.pool, id, budget);
      progress.push((await findImport(server.database.pool, id))!.processedRows);
    }
    expect(progress).toEqual([3, 6, 9, 10]);
    // A slice of a finished import (a duplicate job) does nothing.
    expect(await runImportSlice(server.database.pool, id, budget)).toBe("idle");
    expect(await findImport(server.database.pool, id)).toMatchObject({ status: "done", importedRows: 9, failedRows: 1, createdCount: 9, updatedCount: 0 });
    const { rows } = await server.database.pool.query("SELECT count(*)::int AS n FROM herald.users WHERE external_id LIKE 'r-%'");
    expect(rows[0].n).toBe(9);
  });

  it("records why an import whose job cannot go on failed, instead of retrying it forever", async () => {
    const id = (await uploadCsv(server, "id\nz-1\n", { cookie })).body.import.id as string;
    // A mapping no version of Herald would have stored: the task gives up at once.
    await server.database.pool.query(`UPDATE herald.imports SET status = 'queued', kind = 'users', mapping = '{"kind":"users"}' WHERE id = $1`, [id]);
    const task = importCsvTask(server.database.pool);
    const logger = { error: () => undefined };
    await task({ importId: id }, { job: { attempts: 1, max_attempts: 5 }, logger } as never);
    expect(await findImport(server.database.pool, id)).toMatchObject({ status: "failed", failure: expect.stringMatching(/^The import stopped: The stored mapping is not valid: /) });
  });
});
