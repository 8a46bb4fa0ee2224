import pg from "pg";
import { randomUUID } from "node:crypto";
import { applyDispatchDecisions, claimBatch, evaluateGates, ingestEvents, insertSandboxMessages, pumpOnce, takeTokens, withTransaction } from "@herald/db";
import { generateEvents } from "../src/workload.ts";

const url = process.argv[2]!;
const pool = new pg.Pool({ connectionString: url, max: 2 });
await withTransaction(pool, async (tx) => {
  const ev = generateEvents(3, `fresh-${Date.now()}`, 1667);
  for (let i = 0; i < ev.length; i += 2000) await ingestEvents(tx, ev.slice(i, i + 2000));
});
const c = await pool.connect();
const times = new Map<string, number[]>();
const time = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
  const s = performance.now();
  const r = await fn();
  (times.get(label) ?? times.set(label, []).get(label)!).push(performance.now() - s);
  return r;
};
let total = 0;
const all = performance.now();
for (;;) {
  const pumped = await time("pump pass", () => pumpOnce(c, { batchSize: 100, maxQueuedBatches: 8, lookaheadMs: 5000 }));
  const { rows: jobs } = await c.query("select j.id, t.identifier as task_identifier, j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier like 'send_%' and j.locked_at is null order by j.id");
  if (jobs.length === 0 && pumped.length === 0) break;
  for (const job of jobs) {
    const ids: string[] = job.payload.ids;
    const channel = job.task_identifier.slice(5);
    const claimed = await time("claimBatch", () => claimBatch(c, ids, String(job.id)));
    const verdicts = await time("evaluateGates", () => evaluateGates(c, claimed.map((x) => ({ userId: x.userId!, channel, category: x.category, lane: x.lane })), new Date(), "UTC"));
    await time("takeTokens", () => takeTokens(c, `sandbox-${channel}`, claimed.length));
    await time("apply attempt", () => applyDispatchDecisions(c, claimed.map((x, i) => ({ id: x.id, kind: "attempt" as const, provider: `sandbox-${channel}`, address: verdicts[i]!.address ?? "tok", rendered: { body: "b" } }))));
    const pmids = claimed.map(() => `sandbox-${randomUUID()}`);
    await time("insertSandboxMessages", () => insertSandboxMessages(c, claimed.map((x, i) => ({ notificationId: x.id, providerMessageId: pmids[i]!, channel: channel as "email", recipient: "x", body: "b" }))));
    await time("add_job status events", () => c.query("SELECT graphile_worker.add_job('apply_status_events', $1::json, run_at := now() + interval '1 hour')", [JSON.stringify({ events: pmids.map((p) => ({ providerMessageId: p, kind: "delivered", at: new Date() })) })]));
    await time("apply sent", () => applyDispatchDecisions(c, claimed.map((x, i) => ({ id: x.id, kind: "sent" as const, provider: `sandbox-${channel}`, providerMessageId: pmids[i]!, latencyMs: 0 }))));
    await time("graphile complete (delete job)", () => c.query("delete from graphile_worker._private_jobs where id = $1", [job.id]));
    total += claimed.length;
  }
}
const wall = performance.now() - all;
c.release();
await pool.end();
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
let sum = 0;
for (const [label, a] of times) {
  const s = a.reduce((x, y) => x + y, 0);
  sum += s;
  console.log(`${label.padEnd(32)} ${a.length.toString().padStart(4)} calls  median ${med(a).toFixed(2).padStart(7)} ms  total ${s.toFixed(0).padStart(6)} ms`);
}
console.log(`${total} notifications sequentially in ${wall.toFixed(0)} ms → ${(total / wall * 1000).toFixed(0)}/s on one connection`);
