import { describe, expect, it } from "vitest";
import {
  beginImport,
  discardImport,
  findImport,
  finishImport,
  listImportErrors,
  markImportRowErrors,
  optOutImportedUsers,
  readStagedRows,
  recordImportChunk,
  startImport,
  storeUpload,
  suppressImportedAddresses,
  upsertCategory,
  upsertImportedUsers,
  upsertUser,
  withTransaction,
} from "../src/index.ts";
import { useTestDatabase } from "./support/test-database.ts";

async function* records(rows: string[][], failAfter?: number): AsyncGenerator<string[]> {
  let n = 0;
  for (const row of rows) {
    if (failAfter !== undefined && n === failAfter) throw new Error("the upload broke off");
    n += 1;
    yield row;
  }
}

const meta = { fileName: "people.csv", createdBy: null, sampleRows: 2, measured: () => ({ byteSize: 123, delimiter: ";" }) };

describe("imports in Postgres", () => {
  const test = useTestDatabase();
  const count = async (table: string) => Number((await test.db.pool.query(`SELECT count(*) AS n FROM herald.${table}`)).rows[0].n);

  it("stores an upload: the header, a sample, and every row numbered as a spreadsheet numbers it", async () => {
    const stored = await storeUpload(test.db.pool, meta, records([["id", "note"], ["u-1", "tab\there"], ["u-2", 'back\\slash "quoted"\nline'], ["u-3", "nul\0byte"]]));
    expect(stored).toMatchObject({ header: ["id", "note"], totalRows: 3, byteSize: 123, sample: [["u-1", "tab\there"], ["u-2", 'back\\slash "quoted"\nline']] });
    expect(await findImport(test.db.pool, stored.id)).toMatchObject({ status: "uploaded", delimiter: ";", totalRows: 3, kind: null, mapping: null });
    expect(await readStagedRows(test.db.pool, stored.id, 0, 10)).toEqual([
      { row: 2, fields: ["u-1", "tab\there"], error: null },
      { row: 3, fields: ["u-2", 'back\\slash "quoted"\nline'], error: null },
      { row: 4, fields: ["u-3", "nul\uFFFDbyte"], error: null },
    ]);
    await discardImport(test.db.pool, stored.id);
  });

  it("writes nothing when the records stop with an error mid-COPY", async () => {
    const rows = [["id"], ...Array.from({ length: 50_000 }, (_, i) => [`u-${i}`])];
    await expect(storeUpload(test.db.pool, meta, records(rows, 40_000))).rejects.toThrow("the upload broke off");
    expect(await count("imports")).toBe(0);
    expect(await count("import_rows")).toBe(0);
    // The pool still works: the broken connection was not handed back.
    expect((await test.db.pool.query("SELECT 1 AS ok")).rows[0].ok).toBe(1);
  });

  it("starts once, queues one keyed job, and marks later repeats of a trimmed id before any chunk", async () => {
    const stored = await storeUpload(test.db.pool, meta, records([["id"], ["a"], [" b"], ["a "], [""], ["b\t"], ["c"], ["a"]]));
    const mapping = { kind: "users", fields: { externalId: 0 }, attributes: [] };
    expect(await startImport(test.db.pool, stored.id, { kind: "users", mapping })).toBe("started");
    expect(await startImport(test.db.pool, stored.id, { kind: "users", mapping })).toBe("already_started");
    expect(await startImport(test.db.pool, "999999", { kind: "users", mapping })).toBe("not_found");
    const jobs = await test.db.pool.query(
      `SELECT t.identifier, j.key, j.payload, j.max_attempts
         FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id`,
    );
    expect(jobs.rows).toEqual([{ identifier: "import_csv", key: `import:${stored.id}`, payload: { importId: stored.id }, max_attempts: 5 }]);
    expect(await discardImport(test.db.pool, stored.id)).toBe("in_progress");

    expect(await withTransaction(test.db.pool, (client) => beginImport(client, stored.id, { column: 0, label: "external id" }))).toBe(true);
    expect(await withTransaction(test.db.pool, (client) => beginImport(client, stored.id, { column: 0, label: "external id" }))).toBe(false);
    expect((await readStagedRows(test.db.pool, stored.id, 0, 10)).map((r) => [r.row, r.error])).toEqual([
      [2, null],
      [3, null],
      [4, "duplicate external id: first on row 2"],
      [5, null],
      [6, "duplicate external id: first on row 3"],
      [7, null],
      [8, "duplicate external id: first on row 2"],
    ]);
  });

  it("records a chunk with its writes: reasons kept, applied rows gone, counters moved; a stale chunk is refused", async () => {
    const stored = await storeUpload(test.db.pool, meta, records([["id"], ["a"], ["b"], ["c"], ["d"]]));
    await startImport(test.db.pool, stored.id, { kind: "users", mapping: { kind: "users", fields: { externalId: 0 }, attributes: [] } });
    await withTransaction(test.db.pool, (client) => beginImport(client, stored.id, { column: 0, label: "external id" }));
    await markImportRowErrors(test.db.pool, stored.id, [{ row: 3, reason: "bad" }]);
    const chunk = { fromProcessed: 0, toProcessed: 2, imported: 1, created: 1, updated: 0, failed: 1 };
    expect(await recordImportChunk(test.db.pool, stored.id, chunk)).toBe(true);
    // The same chunk again (a second slice racing the first) changes nothing.
    expect(await recordImportChunk(test.db.pool, stored.id, chunk)).toBe(false);
    expect((await readStagedRows(test.db.pool, stored.id, 0, 10)).map((r) => r.row)).toEqual([3, 4, 5]);
    expect(await finishImport(test.db.pool, stored.id)).toBe(false);
    expect(await recordImportChunk(test.db.pool, stored.id, { ...chunk, fromProcessed: 2, toProcessed: 4, imported: 2, created: 2, failed: 0 })).toBe(true);
    expect(await finishImport(test.db.pool, stored.id)).toBe(true);
    expect(await findImport(test.db.pool, stored.id)).toMatchObject({ status: "done", processedRows: 4, importedRows: 3, failedRows: 1, createdCount: 3 });
    expect(await listImportErrors(test.db.pool, stored.id, { afterRow: 0, limit: 10 })).toEqual([{ row: 3, reason: "bad", fields: ["b"] }]);
    expect(await discardImport(test.db.pool, stored.id)).toBe("discarded");
    expect(await readStagedRows(test.db.pool, stored.id, 0, 10)).toEqual([]);
  });

  it("upserts users set-based: created and merged counted, empty fields keep what is stored", async () => {
    await upsertUser(test.db.pool, "old", { email: "old@example.com", timezone: "Europe/Berlin", attributes: { tier: "gold", plan: "free" } });
    const counts = await upsertImportedUsers(test.db.pool, [
      { externalId: "old", email: null, phone: "+4915112345678", timezone: null, locale: null, attributes: { plan: "pro" } },
      { externalId: "new", email: "new@example.com", phone: null, timezone: null, locale: "de", attributes: {} },
    ]);
    expect(counts).toEqual({ created: 1, updated: 1 });
    const { rows } = await test.db.pool.query("SELECT external_id, email, phone, timezone, locale, attributes FROM herald.users ORDER BY external_id");
    expect(rows).toEqual([
      { external_id: "new", email: "new@example.com", phone: null, timezone: null, locale: "de", attributes: {} },
      { external_id: "old", email: "old@example.com", phone: "+4915112345678", timezone: "Europe/Berlin", locale: null, attributes: { tier: "gold", plan: "pro" } },
    ]);
  });

  it("suppresses addresses without overwriting an earlier reason, and opts users out without turning anyone back on", async () => {
    await test.db.pool.query("INSERT INTO herald.suppressions (channel, address, reason, source) VALUES ('sms', '+14155550100', 'stop', 'twilio')");
    expect(
      await suppressImportedAddresses(test.db.pool, "7", [
        { channel: "sms", address: "+14155550100" },
        { channel: "email", address: "gone@example.com" },
        { channel: "email", address: "gone@example.com" },
      ]),
    ).toEqual({ created: 1, updated: 2 });
    const { rows: suppressions } = await test.db.pool.query("SELECT channel, address, reason, detail FROM herald.suppressions ORDER BY channel");
    expect(suppressions).toEqual([
      { channel: "email", address: "gone@example.com", reason: "import", detail: { importId: "7" } },
      { channel: "sms", address: "+14155550100", reason: "stop", detail: {} },
    ]);

    await upsertCategory(test.db.pool, "news", { label: "News" });
    await test.db.pool.query(
      `INSERT INTO herald.preferences (user_id, category, channel, enabled, source)
       SELECT id, 'news', 'email', true, 'api' FROM herald.users WHERE external_id = 'old'`,
    );
    const optedOut = await optOutImportedUsers(test.db.pool, [
      { userId: "old", channels: ["email", "sms"], category: "news" },
      { userId: "old", channels: ["email"], category: "news" },
      { userId: "brand-new", channels: ["push"], category: "news" },
    ]);
    // old: email switched off (updated), sms new; brand-new: created bare with its push opt-out.
    expect(optedOut).toEqual({ created: 2, updated: 1 });
    const { rows: preferences } = await test.db.pool.query(
      `SELECT u.external_id, p.channel, p.enabled, p.source FROM herald.preferences p JOIN herald.users u ON u.id = p.user_id ORDER BY 1, 2`,
    );
    expect(preferences).toEqual([
      { external_id: "brand-new", channel: "push", enabled: false, source: "import" },
      { external_id: "old", channel: "email", enabled: false, source: "import" },
      { external_id: "old", channel: "sms", enabled: false, source: "import" },
    ]);
  });
});
