/**
 * One end-to-end CSV import of activities, outside the scenario table (an import is one long
 * run, not rounds): a generated file streamed to a real Herald server process (never held by
 * this process or the server), mapped and imported by its worker, timed, with the server's
 * resident memory sampled throughout; then the baseline on the same database: one bare
 * INSERT … SELECT of as many activities of the same shape.
 *
 *   DATABASE_URL=postgres://… node bench/src/measure-activities-import.ts [rows] [--server-heap-mib N] [--keep]
 *
 * --server-heap-mib caps the server's JavaScript heap (a server that held the file would run
 * out); --keep leaves the database behind for EXPLAIN.
 */
import { createHash, randomBytes } from "node:crypto";
import { createMember, createSession, openDatabase } from "@herald/db";
import { createBenchDatabase, settleDrops, startBenchCluster, withClient } from "./bench-database.ts";
import { readBenchEnv } from "./bench-env.ts";
import { startHerald } from "./herald-process.ts";
import { readProcessMemory } from "./process-stats.ts";

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const ROWS = Number(args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const SERVER_HEAP_MIB = option("--server-heap-mib");
const KEEP = args.includes("--keep");
const USERS = 10_000;
const NAMES = ["session_completed", "app_opened", "purchase", "level_up", "share"];
// Every 1000th row has a time without an offset: refused, and in the error report.
const BAD_EVERY = 1000;

/** The file, made a thousand rows at a time as the upload pulls it. */
function generatedCsv(): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const start = Date.parse("2026-01-01T00:00:00Z");
  let row = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let chunk = row === 0 ? "user_id,activity,occurred_at,activity_key,properties\n" : "";
      for (const end = Math.min(row + 1000, ROWS); row < end; row += 1) {
        const at = new Date(start + row * 1000).toISOString();
        const time = row % BAD_EVERY === BAD_EVERY - 1 ? at.slice(0, 19) : at.replace("Z", "+00:00");
        // Half the rows carry their own key, half get one derived from their content.
        const key = row % 2 === 0 ? `k-${row}` : "";
        chunk += `u-${row % USERS},${NAMES[row % NAMES.length]},${time},${key},"{""n"":${row % 100},""source"":""bench""}"\n`;
      }
      controller.enqueue(encoder.encode(chunk));
      if (row >= ROWS) controller.close();
    },
  });
}

function sampleRss(pid: number) {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, readProcessMemory(pid)?.rssMb ?? 0)), 100);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, readProcessMemory(pid)?.rssMb ?? 0);
    },
  };
}

async function trpc(baseUrl: string, cookie: string, path: string, input: unknown, mutation = false): Promise<any> {
  const response = mutation
    ? await fetch(`${baseUrl}/trpc/${path}`, { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify(input) })
    : await fetch(`${baseUrl}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { cookie } });
  const body = (await response.json()) as { result?: { data: unknown }; error?: { message: string } };
  if (body.error) throw new Error(`${path}: ${body.error.message}`);
  return body.result!.data;
}

async function main(): Promise<void> {
  const env = readBenchEnv();
  const cluster = await startBenchCluster(env, (m) => console.log(`postgres: ${m}`));
  const database = await createBenchDatabase(cluster.url, "import_activities");
  const db = openDatabase(database.url);
  const herald = await startHerald({
    databaseUrl: database.url,
    role: "all",
    childBase: env.childBase,
    env: {
      HERALD_PUBLIC_URL: "http://127.0.0.1",
      ...(SERVER_HEAP_MIB ? { NODE_OPTIONS: `--max-old-space-size=${Number(SERVER_HEAP_MIB)}` } : {}),
    },
  });
  try {
    const member = await createMember(db.prisma, { email: "bench@example.com", name: "bench", role: "admin", passwordHash: "not-a-password" });
    const token = randomBytes(32).toString("base64url");
    await createSession(db.prisma, { id: createHash("sha256").update(token).digest("hex"), memberId: member.id, expiresAt: new Date(Date.now() + 86_400_000), userAgent: null, ip: null });
    const cookie = `herald_session=${token}`;
    const mb = (n: number) => `${n.toFixed(0)} MiB`;
    const atRest = readProcessMemory(herald.pid)!.rssMb;

    const uploadRss = sampleRss(herald.pid);
    const uploadStart = performance.now();
    const upload = await fetch(`${herald.baseUrl}/files/imports?name=activities.csv`, {
      method: "POST",
      headers: { "content-type": "text/csv", origin: "http://127.0.0.1", cookie },
      body: generatedCsv(),
      duplex: "half",
    } as RequestInit);
    const answer = await upload.text();
    if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${answer}`);
    const uploaded = JSON.parse(answer);
    const uploadMs = performance.now() - uploadStart;
    const uploadPeak = uploadRss.stop();
    const id = uploaded.import.id as string;

    const importRss = sampleRss(herald.pid);
    const importStart = performance.now();
    await trpc(herald.baseUrl, cookie, "imports.start", { id, mapping: { kind: "activities", userId: 0, name: 1, occurredAt: 2, key: 3, properties: 4 } }, true);
    let done: any;
    for (;;) {
      done = await trpc(herald.baseUrl, cookie, "imports.get", { id });
      if (done.status === "done" || done.status === "failed") break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const importMs = performance.now() - importStart;
    const importPeak = importRss.stop();
    if (done.status !== "done") throw new Error(`import failed: ${done.failure}`);

    const { baselineMs, stored } = await withClient(database.url, async (c) => {
      const stored = Number((await c.query("SELECT count(*) AS n FROM herald.activities")).rows[0].n);
      const begun = performance.now();
      await c.query(
        `INSERT INTO herald.activities (user_id, name, activity_key, properties, occurred_at)
         SELECT u.id, (ARRAY['session_completed','app_opened','purchase','level_up','share'])[1 + g % 5], 'base-' || g,
                jsonb_build_object('n', g % 100, 'source', 'bench'), timestamptz '2027-01-01' + g * interval '1 second'
           FROM generate_series(0, $1::int - 1) g JOIN herald.users u ON u.external_id = 'u-' || (g % ${USERS})`,
        [ROWS],
      );
      return { baselineMs: performance.now() - begun, stored };
    });

    const rate = (ms: number) => Math.round(ROWS / (ms / 1000)).toLocaleString("en");
    console.log(`file: ${ROWS.toLocaleString("en")} rows, ${(uploaded.import.byteSize / 1048576).toFixed(0)} MiB; server heap cap: ${SERVER_HEAP_MIB ? `${SERVER_HEAP_MIB} MiB` : "none"}`);
    console.log(`upload: ${(uploadMs / 1000).toFixed(1)} s; server RSS ${mb(atRest)} at rest, peak ${mb(uploadPeak)}`);
    console.log(
      `import: ${(importMs / 1000).toFixed(1)} s (${rate(importMs)} rows/s); ${done.importedRows} imported (${done.createdCount} recorded), ${done.failedRows} refused; ` +
        `server peak RSS ${mb(importPeak)}; activities stored: ${stored}`,
    );
    console.log(`end to end: ${((uploadMs + importMs) / 1000).toFixed(1)} s`);
    console.log(`baseline: one INSERT … SELECT of ${ROWS.toLocaleString("en")} activities of the same shape: ${(baselineMs / 1000).toFixed(1)} s (${rate(baselineMs)} rows/s)`);
  } finally {
    await herald.stop();
    await db.close();
    if (!KEEP) await database.drop();
    await settleDrops();
    await cluster.release();
  }
}

await main();
