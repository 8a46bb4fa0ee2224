import { checkTemplate, parseRule, TemplateBodySchema } from "@herald/core";
import { createBroadcast, createTemplate, findBroadcast, publishTemplateDraft, scheduleKeyedJob, transitionBroadcast } from "@herald/db";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Scenario } from "../src/scenario.ts";
import { sesAtRate } from "../src/ses-at-rate.ts";
import { seedWorkload } from "../src/workload.ts";

// Long: issue 9's 200,000 recipients; small (`pnpm test`): 10,000, two fan-out chunks of 5,000.
const RECIPIENTS = process.env.HERALD_CHAOS_LONG ? 200_000 : 10_000;
/** Sends as fast as the worker can: the fan-out, not the provider's pace, is under test. */
const SES_RATE = 100_000;
/** Every email sent through the simulator, at a few hundred a second on the shared machine. */
const DRAIN_MS = Math.max(120_000, RECIPIENTS * 10);

describe(`a broadcast to ${RECIPIENTS.toLocaleString("en")} recipients killed half-way through its fan-out`, () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await Scenario.open("load-broadcast-kill9", inject("templateUrl"));
  });
  afterAll(async () => scenario?.close());

  it(
    "resumes in a new worker: one notification per recipient, each sent, nothing sent twice beyond what the kill exposed",
    async () => {
      const s = scenario;
      await seedWorkload(s.sql, RECIPIENTS);
      const env = await sesAtRate(s, SES_RATE);
      const broadcastId = await scheduleBroadcast(s);
      const first = s.startWorker(env);

      // Half-way: at least one chunk committed (its rows and their send jobs), the fan-out not done.
      let rowsAtKill = 0;
      for (;;) {
        const { rows } = await s.sql.query<{ n: number; done: boolean }>(
          `SELECT (SELECT count(*)::int FROM herald.notifications WHERE broadcast_id = $1) AS n,
                  (SELECT fanout_done_at IS NOT NULL FROM herald.broadcasts WHERE id = $1) AS done`,
          [broadcastId],
        );
        expect(rows[0]!.done, "the fan-out ended before the worker could be killed").toBe(false);
        if (rows[0]!.n >= RECIPIENTS / 2) {
          await s.kill9(first);
          rowsAtKill = rows[0]!.n;
          break;
        }
        if (first.child.exitCode !== null) throw new Error(`the worker exited\n${first.output()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const { rows: atKill } = await s.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM herald.notifications WHERE broadcast_id = $1`, [broadcastId]);
      console.info(`broadcast of ${RECIPIENTS}: killed with ${atKill[0]!.n} rows fanned out (${rowsAtKill} seen just before)`);
      expect(atKill[0]!.n).toBeLessThan(RECIPIENTS);

      // The dead worker's heartbeat goes silent (2 s here); the next worker frees its jobs, the
      // start_broadcast job among them, and the fan-out resumes at its cursor.
      await new Promise((r) => setTimeout(r, 2500));
      await s.ready(s.startWorker(env));
      await s.drain(RECIPIENTS, DRAIN_MS);
      const broadcast = await findBroadcast(s.sql, broadcastId);
      expect(broadcast?.fanoutDoneAt).not.toBeNull();
      const { rows } = await s.sql.query<{ rows: number; users: number }>(
        `SELECT count(*)::int AS rows, count(DISTINCT user_id)::int AS users FROM herald.notifications WHERE broadcast_id = $1`,
        [broadcastId],
      );
      expect(rows[0]).toEqual({ rows: RECIPIENTS, users: RECIPIENTS });

      const summary = await s.finish(RECIPIENTS);
      expect(summary).toMatchObject({ notifications: RECIPIENTS, lost: 0, status_regressions: 0, locked_jobs: 0 });
      expect(summary.statuses).toEqual({ sent: RECIPIENTS });
      expect(summary.duplicates).toBeLessThanOrEqual(summary.duplicate_budget);
    },
    DRAIN_MS + 180_000,
  );
});

/**
 * An email broadcast to everyone with an email (every seeded user), through a published
 * template, moved to scheduled and handed to the start_broadcast job, as "Send now" does.
 */
async function scheduleBroadcast(s: Scenario): Promise<string> {
  const { rows } = await s.sql.query<{ id: string }>(
    `INSERT INTO herald.members (email, name, role, password_hash) VALUES ('chaos@herald.example', 'Chaos', 'admin', '-') RETURNING id::text`,
  );
  const memberId = rows[0]!.id;
  const meta = { channels: ["email" as const], defaultLocale: "en" };
  const body = TemplateBodySchema.parse({ variables: [], content: { en: { email: { subject: "News", html: "<p>News for {{ user.email }}</p>" } } } });
  await createTemplate(s.sql, { key: "chaos.news", name: "Chaos news", ...meta, defaultCategory: "news", memberId, draft: body });
  const published = await publishTemplateDraft(s.database.pool, "chaos.news", memberId, () => checkTemplate({ meta, body }));
  if (published.kind !== "published") throw new Error(`the template did not publish: ${JSON.stringify(published)}`);
  const rule = parseRule({ kind: "has_email" });
  if (!rule.ok) throw new Error("the segment rule does not parse");
  const segment = await s.sql.query<{ id: string }>(`INSERT INTO herald.segments (name, rule) VALUES ('everyone', $1::jsonb) RETURNING id::text`, [JSON.stringify(rule.rule)]);
  const id = await createBroadcast(
    s.sql,
    { name: "chaos", segmentId: segment.rows[0]!.id, templateKey: "chaos.news", variants: [{ version: 1, percent: 100 }], channels: ["email"], category: "news", lane: "bulk", holdoutPercent: 0, throttlePerMinute: null, data: {} },
    memberId,
  );
  const now = new Date();
  if (!(await transitionBroadcast(s.sql, id, ["draft"], "scheduled", { schedule: { kind: "now" }, startsAt: now, memberId }))) throw new Error(`broadcast ${id} did not move to scheduled`);
  await scheduleKeyedJob(s.sql, "start_broadcast", { broadcastId: id }, now, `broadcast:${id}`);
  return id;
}
