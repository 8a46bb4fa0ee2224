import pg from "pg";
import { randomUUID } from "node:crypto";
import { applyDispatchDecisions, claimBatch, evaluateGates, ingestEvents, pumpOnce, withTransaction } from "@herald/db";
import { generateEvents } from "../src/workload.ts";

const url = process.argv[2]!;
const mode = process.argv[3] ?? "explain";
const pool = new pg.Pool({ connectionString: url, max: 2 });
const history = Number(process.argv[4] ?? 15000);
const { rows: [{ n }] } = await pool.query("select count(*)::int n from herald.notifications");
if (n === 0) {
  // History: earlier rounds, already sent.
  await withTransaction(pool, async (tx) => {
    const ev = generateEvents(1, "hist", history / 3);
    for (let i = 0; i < ev.length; i += 2000) await ingestEvents(tx, ev.slice(i, i + 2000));
  });
  await pool.query(`UPDATE herald.notifications SET status='sent', dispatch_state='done', sent_at=now(), attempt_count=1, provider='sandbox-'||channel, provider_message_id='sandbox-'||id, address='x', rendered=content`);
  await withTransaction(pool, async (tx) => {
    const ev = generateEvents(2, "fresh", 1667);
    for (let i = 0; i < ev.length; i += 2000) await ingestEvents(tx, ev.slice(i, i + 2000));
  });
  await pool.query("VACUUM ANALYZE herald.notifications");
}
const c = await pool.connect();
const notices: string[] = [];
c.on("notice", (m) => notices.push(m.message ?? ""));
if (mode === "explain") {
  await c.query("LOAD 'auto_explain'");
  await c.query("SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on; SET auto_explain.log_nested_statements = on; SET auto_explain.log_level = 'notice'; SET auto_explain.log_buffers = on; SET client_min_messages = notice");
}
const t = (label: string) => { const s = performance.now(); return () => console.log(`${label}: ${(performance.now() - s).toFixed(1)} ms`); };
let done = t("pump");
const pumped = await pumpOnce(c, { batchSize: 100, maxQueuedBatches: 8, lookaheadMs: 5000 });
done();
console.log(pumped);
const { rows: jobs } = await c.query("select j.id, t.identifier as task_identifier, j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier like 'send_%' and j.locked_at is null order by j.id limit 3");
for (const job of jobs) {
  const ids: string[] = job.payload.ids;
  const channel = job.task_identifier.slice(5);
  done = t(`claim ${channel}`);
  const claimed = await claimBatch(c, ids, String(job.id));
  done();
  done = t("gates");
  const verdicts = await evaluateGates(c, claimed.map((x) => ({ userId: x.userId!, channel, category: x.category, lane: x.lane })), new Date(), "UTC");
  done();
  console.log("verdicts", verdicts.filter((v) => v.verdict === "send").length);
  done = t("apply attempt");
  await applyDispatchDecisions(c, claimed.map((x, i) => ({ id: x.id, kind: "attempt" as const, provider: `sandbox-${channel}`, address: verdicts[i]!.address ?? "tok", rendered: { body: "b" } })));
  done();
  done = t("apply sent");
  await applyDispatchDecisions(c, claimed.map((x) => ({ id: x.id, kind: "sent" as const, provider: `sandbox-${channel}`, providerMessageId: `sandbox-${randomUUID()}`, latencyMs: 0 })));
  done();
  if (mode === "explain") break;
}
c.release();
await pool.end();
if (mode === "explain") console.log(notices.join("\n\n==========\n"));
