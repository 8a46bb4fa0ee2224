import fs from "node:fs";
import { openDatabase, type Database } from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runImport, uploadCsv } from "./support/imports.ts";
import { spawnEntry, waitFor, type RunningProcess } from "./support/server-process.ts";
import { freePort } from "@herald/db/testing";
import { memberWithSession } from "./support/test-server.ts";
import { trpcMutation } from "./support/trpc-http.ts";

const ROWS = 200_000;
const HEAP_MIB = 192;
// Wide rows, so the file (~85 MiB) dwarfs anything the server may hold for its own reasons.
const NOTE = "n".repeat(400);

/** The file as a stream made row by row on demand: the test never holds it either. */
function generatedCsv(rows = ROWS): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let row = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (row === 0) controller.enqueue(encoder.encode("id,email,plan,score,note\n"));
      let chunk = "";
      for (const end = Math.min(row + 1000, rows); row < end; row += 1) {
        // Every 1000th row has a bad email: the error report must hold exactly those.
        const email = row % 1000 === 999 ? "broken" : `user${row}@example.com`;
        chunk += `bulk-${row},${email},${row % 2 ? "pro" : "free"},${row % 100},${NOTE}\n`;
      }
      controller.enqueue(encoder.encode(chunk));
      if (row >= rows) controller.close();
    },
  });
}

/** VmRSS and VmHWM (the peak) of a process, in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kib("VmRSS"), peak: kib("VmHWM") };
}

describe("a large CSV import", () => {
  let database: TestDatabase;
  let db: Database;
  let server: RunningProcess;
  let url = "";

  // The real server process, so its memory is measured apart from this test's own.
  beforeAll(async () => {
    database = await createTestDatabase(inject("templateUrl"));
    db = openDatabase(database.url);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = spawnEntry("main", [], {
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: "127.0.0.1",
      HERALD_PUBLIC_URL: url,
      HERALD_LOG_LEVEL: "warn",
      // A JavaScript heap smaller than the larger file: a server that held it would run out.
      NODE_OPTIONS: `--max-old-space-size=${HEAP_MIB}`,
    });
    await waitFor(async () => (await fetch(`${url}/readyz`)).ok, `the server to be ready:\n${server.output()}`);
  });

  afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exit;
    await db?.close();
    await database?.drop();
  });

  it(
    "streams 200,000- and 600,000-row files into a server with a smaller heap, its memory not growing with them, then imports one",
    async () => {
      const { cookie } = await memberWithSession(db, "admin");
      const target = { url, env: { publicUrl: new URL(url) } };
      const mib = (bytes: number) => (bytes / 1048576).toFixed(0);
      const before = memoryOf(server.child.pid!);
      const started = Date.now();
      const upload = await uploadCsv(target, generatedCsv(), { cookie, name: "bulk.csv" });
      const uploadMs = Date.now() - started;
      const afterFirst = memoryOf(server.child.pid!);
      expect(upload.status).toBe(201);
      expect(upload.body.import.totalRows).toBe(ROWS);
      const fileBytes = upload.body.import.byteSize as number;
      expect(fileBytes).toBeGreaterThan(80 * 1024 * 1024);
      console.info(`upload of ${mib(fileBytes)} MiB in ${uploadMs} ms: server RSS ${mib(before.rss)} MiB before, peak ${mib(afterFirst.peak)} MiB`);

      // Memory must not grow with the file. The garbage collector lets RSS grow by a slack of
      // its own (about 100 MiB here, whatever the file), so the proof is a file three times as
      // large as the first, and larger than the server's whole heap limit.
      const larger = await uploadCsv(target, generatedCsv(3 * ROWS), { cookie, name: "bulk-larger.csv" });
      expect(larger.status).toBe(201);
      const largerBytes = larger.body.import.byteSize as number;
      expect(largerBytes).toBeGreaterThan(HEAP_MIB * 1024 * 1024);
      const afterLarger = memoryOf(server.child.pid!);
      console.info(`upload of ${mib(largerBytes)} MiB: server peak RSS ${mib(afterLarger.peak)} MiB`);
      const growth = afterLarger.peak - before.rss;
      expect(growth, `the server's peak RSS grew by ${mib(growth)} MiB with a ${mib(largerBytes)} MiB file`).toBeLessThan(largerBytes * 0.75);
      expect((await trpcMutation(url, "imports.discard", { id: larger.body.import.id }, { cookie })).error).toBeNull();

      const mapping = { kind: "users", fields: { externalId: 0, email: 1 }, attributes: [{ column: 2, name: "plan", type: "string" }, { column: 3, name: "score", type: "number" }] };
      const importStarted = Date.now();
      const done = await runImport(url, cookie, upload.body.import.id, mapping, 240_000);
      console.info(`import of ${ROWS} rows in ${Date.now() - importStarted} ms: server peak RSS ${mib(memoryOf(server.child.pid!).peak)} MiB`);
      expect(done).toMatchObject({ status: "done", processedRows: ROWS, importedRows: ROWS - ROWS / 1000, failedRows: ROWS / 1000, createdCount: ROWS - ROWS / 1000 });
      const { rows } = await db.pool.query(
        `SELECT count(*)::int AS users, count(*) FILTER (WHERE attributes->>'plan' = 'pro')::int AS pro,
                (SELECT count(*)::int FROM herald.import_rows WHERE import_id = $1) AS staged
           FROM herald.users WHERE external_id LIKE 'bulk-%'`,
        [upload.body.import.id],
      );
      // Applied rows leave the staging table; the refused ones stay as the error report.
      expect(rows[0]).toEqual({ users: ROWS - ROWS / 1000, pro: ROWS / 2 - ROWS / 1000, staged: ROWS / 1000 });
    },
    300_000,
  );
});
