import { funnelOf } from "@herald/core";
import { describe, expect, it } from "vitest";
import { broadcastCounters, broadcastLiveRows, broadcastProgress, createBroadcast, createTemplate, publishTemplateDraft, transitionBroadcast } from "../src/index.ts";
import { useTestDatabase } from "./support/test-database.ts";

/** Statuses in the order rows are written below, and how many of each. */
const MIX: Array<[status: string, reason: string | null, count: number]> = [
  ["pending", null, 4],
  ["sent", null, 3],
  ["delivered", null, 5],
  ["failed", "provider_rejected", 2],
  ["bounced", null, 1],
  ["dead", "retries_exhausted", 1],
  ["skipped", "opted_out", 6],
  ["canceled", "broadcast_canceled", 2],
];

describe("broadcast counters", () => {
  const test = useTestDatabase();

  async function broadcastWith(mix: typeof MIX, prefix: string): Promise<string> {
    const sql = test.db.pool;
    const memberId = (await sql.query("INSERT INTO herald.members (email, name, role, password_hash) VALUES ($1, 'C', 'marketer', 'x') RETURNING id::text", [`${prefix}@example.com`])).rows[0].id;
    const segmentId = (await sql.query(`INSERT INTO herald.segments (name, rule) VALUES ($1, '{"kind": "and", "children": []}') RETURNING id::text`, [prefix])).rows[0].id;
    await sql.query("INSERT INTO herald.categories (key, label) VALUES ('marketing', 'Marketing') ON CONFLICT DO NOTHING");
    const key = `t-${prefix}`;
    await createTemplate(sql, { key, name: "T", channels: ["email", "sms"], defaultCategory: null, defaultLocale: "en", memberId, draft: { variables: [], content: { en: { email: { subject: "S", html: "<p>S</p>" }, sms: { body: "S" } } } } });
    await publishTemplateDraft(sql, key, memberId, () => []);
    const id = await createBroadcast(
      sql,
      { name: prefix, segmentId, templateKey: key, variants: [{ version: 1, percent: 100 }], channels: ["email", "sms"], category: "marketing", lane: "bulk", holdoutPercent: 0, throttlePerMinute: null, data: {} },
      memberId,
    );
    await transitionBroadcast(sql, id, ["draft"], "sending");
    const statuses = mix.flatMap(([status, reason, count]) => Array.from({ length: count }, () => ({ status, reason })));
    await sql.query(
      `WITH u AS (INSERT INTO herald.users (external_id, email) SELECT $2 || i, $2 || i || '@example.com' FROM generate_series(1, $3::int) i RETURNING id, substr(external_id, length($2) + 1)::int AS n)
       INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, template_key, template_version, status, reason, dispatch_state, broadcast_id)
       SELECT 'broadcast:' || $1 || ':' || u.id || ':' || ch, u.id, 'broadcast', ch, 'marketing', $6, 1, ($4::text[])[u.n], ($5::text[])[u.n],
              CASE WHEN ($4::text[])[u.n] = 'pending' THEN 'queued' ELSE 'done' END, $1::bigint
         FROM u, LATERAL (SELECT CASE WHEN u.n % 2 = 0 THEN 'email' ELSE 'sms' END AS ch) c`,
      [id, prefix, statuses.length, statuses.map((s) => s.status), statuses.map((s) => s.reason), key],
    );
    return id;
  }

  it("counts the asked-for broadcasts in one grouped query, as core's funnel counts them", async () => {
    const mixed = await broadcastWith(MIX, "mixed");
    const done = await broadcastWith([["delivered", null, 7]], "done");
    const other = await broadcastWith([["pending", null, 3]], "other");

    const counters = await broadcastCounters(test.db.pool, [mixed, done, "999999"]);
    // 24 rows: pending 4; handed over: sent 3 + delivered 5 + failed 2 + bounced 1; failed 2 + bounced 1 + dead 1; skipped 6.
    expect(counters.get(mixed)).toEqual({ targeted: 24, pending: 4, sent: 11, failed: 4, skipped: 6 });
    expect(counters.get(done)).toEqual({ targeted: 7, pending: 0, sent: 7, failed: 0, skipped: 0 });
    // Only the page's broadcasts are read; one without rows is simply absent.
    expect(counters.has(other)).toBe(false);
    expect(counters.has("999999")).toBe(false);
    expect(await broadcastCounters(test.db.pool, [])).toEqual(new Map());

    const funnel = funnelOf(await broadcastProgress(test.db.pool, mixed));
    expect(counters.get(mixed)).toEqual({ targeted: funnel.targeted, pending: funnel.pending, sent: funnel.sent, failed: funnel.failed, skipped: funnel.skipped });
  });

  it("gives the live counters the same totals as the report's rows, without splitting by variant", async () => {
    const id = await broadcastWith(MIX, "live");
    const live = await broadcastLiveRows(test.db.pool, id);
    expect(live.every((r) => r.version === null)).toBe(true);
    const { byReason, ...liveTotals } = funnelOf(live);
    const { byReason: reportReasons, ...reportTotals } = funnelOf(await broadcastProgress(test.db.pool, id));
    expect(liveTotals).toEqual(reportTotals);
    expect(byReason).toEqual(reportReasons);
    expect(byReason).toEqual({ retries_exhausted: 1, opted_out: 6 });
  });
});
