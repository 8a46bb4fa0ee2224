import pg from "pg";
const url = process.argv[2]!;
const clients = { default: new pg.Client({ connectionString: url }), forced_index: new pg.Client({ connectionString: url }) };
for (const c of Object.values(clients)) await c.connect();
await clients.forced_index.query("SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_seqscan = off");
const res: Record<string, number[]> = { default: [], forced_index: [] };
let k = 0;
for (let round = 0; round < 12; round++) {
  for (const mode of ["default", "forced_index"] as const) {
    const c = clients[mode];
    await c.query("BEGIN");
    const t = performance.now();
    for (let i = 0; i < 40; i++) {
      k++;
      await c.query("SELECT * FROM herald.ingest_events($1::jsonb)", [JSON.stringify([{ eventId: `ab-${Date.now()}-${k}`, type: "bench.event", userId: `u${(k * 37) % 10000}`, data: { n: k } }])]);
    }
    res[mode]!.push((performance.now() - t) / 40);
    await c.query("ROLLBACK");
  }
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!.toFixed(2);
const min = (a: number[]) => Math.min(...a).toFixed(2);
const { rows } = await clients.default.query("select (select count(*) from herald.events) e, (select count(*) from herald.users) u");
console.log(rows[0], `default: median ${med(res.default!)} ms (min ${min(res.default!)}), forced index probes: median ${med(res.forced_index!)} ms (min ${min(res.forced_index!)}) per single-event call, no commit`);
for (const c of Object.values(clients)) await c.end();
