import pg from "pg";
const url = process.argv[2]!;
const c = new pg.Client({ connectionString: url });
await c.connect();
async function time(label: string, setup: string[], n = 300) {
  for (const s of setup) await c.query(s);
  const t = performance.now();
  for (let i = 0; i < n; i++) {
    await c.query("SELECT * FROM herald.ingest_events($1::jsonb)", [JSON.stringify([{ eventId: `${label}-${Date.now()}-${i}`, type: "bench.event", userId: `u${(i * 37) % 10000}`, data: { n: i } }])]);
  }
  const ms = (performance.now() - t) / n;
  console.log(`${label}: ${ms.toFixed(2)} ms per single-event call`);
  await c.query("RESET ALL");
}
const { rows } = await c.query("select (select count(*) from herald.events) e, (select count(*) from herald.users) u");
console.log(rows[0]);
await time("default", []);
await time("no-seqscan", ["SET enable_seqscan = off"]);
await time("default2", []);
await time("no-seqscan2", ["SET enable_seqscan = off"]);
await c.end();
