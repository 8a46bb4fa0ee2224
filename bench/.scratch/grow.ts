import pg from "pg";
import { ingestEvents } from "@herald/db";
import { generateEvents } from "../src/workload.ts";
const c = new pg.Client({ connectionString: process.argv[2]! });
await c.connect();
const ev = generateEvents(9, `grow-${Date.now()}`, Number(process.argv[3]));
for (let i = 0; i < ev.length; i += 2000) await ingestEvents(c, ev.slice(i, i + 2000));
await c.query("ANALYZE");
await c.end();
