import { openSeedQueue, SEED_QUEUE_SCHEMA } from "../baselines/seed-queue.ts";
import pg from "pg";
const url = process.argv[2]!;
const c = new pg.Client({ connectionString: url }); await c.connect(); await c.query(SEED_QUEUE_SCHEMA); await c.end();
const users = Array.from({ length: 10000 }, (_, i) => `u${i}`);
const configs: Array<[number, number]> = [[1, 100], [2, 100], [4, 100], [8, 100], [4, 20], [4, 500], [8, 20], [16, 50]];
const results = new Map<string, number[]>();
for (let rep = 0; rep < 2; rep++) {
  for (const [d, l] of configs) {
    const q = await openSeedQueue(url, d, l);
    await q.enqueue(5000, users);
    const r = await q.drain();
    await q.stop();
    const k = `${d} drainers × ${l}`;
    (results.get(k) ?? results.set(k, []).get(k)!).push(Math.round(r.sent / (r.durationMs / 1000)));
  }
}
for (const [k, v] of results) console.log(k.padEnd(20), v.join(", "), "/s");
