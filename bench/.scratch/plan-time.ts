import pg from "pg";
const url = process.argv[2]!;
const c = new pg.Client({ connectionString: url });
await c.connect();
const { rows: ids } = await c.query("select id::text, user_id::text from herald.notifications where channel='email' order by id desc limit 100");
const users = ids.map((r) => r.user_id);
const n = users.length;
async function explain(label: string, sql: string, params: unknown[]) {
  const plan: number[] = [], exec: number[] = [];
  for (let i = 0; i < 7; i++) {
    const { rows } = await c.query(`EXPLAIN (ANALYZE, SUMMARY, FORMAT JSON) ${sql}`, params);
    const p = rows[0]["QUERY PLAN"][0];
    plan.push(p["Planning Time"]); exec.push(p["Execution Time"]);
  }
  const med = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)]!.toFixed(2);
  console.log(`${label}: planning ${med(plan)} ms, execution ${med(exec)} ms (median of 7)`);
}
await c.query("BEGIN");
await explain("evaluate_gates x100", "SELECT * FROM herald.evaluate_gates($1::bigint[], $2::text[], $3::text[], $4::text[], $5, $6)",
  [users, users.map(() => "email"), users.map(() => "bench"), users.map(() => "bulk"), new Date(), "UTC"]);
await explain("claim x100 (no rows match)", `UPDATE herald.notifications n SET dispatch_state = 'in_flight', in_flight_job = $2, updated_at = now()
      FROM herald.notifications cur LEFT JOIN herald.users u ON u.id = cur.user_id
     WHERE n.id = cur.id AND n.id = ANY ($1::bigint[]) AND n.status = 'pending'
    RETURNING n.id::text, u.email`, [ids.map((r) => r.id), "1"]);
await c.query("ROLLBACK");
await c.end();
