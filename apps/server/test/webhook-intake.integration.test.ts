import type { AddressInfo } from "node:net";
import type { Sql, WebhookToRecord } from "@herald/db";
import express from "express";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { processRegistry } from "../src/operations/process-metrics.ts";
import { createWebhookIntake, webhookAdmission } from "../src/http/webhooks/webhook-intake.ts";
import { databaseOutage } from "./support/database-outage.ts";
import { useTestServer } from "./support/test-server.ts";

const server = useTestServer();

const twilioCallback = (sid: string, status = "delivered", raw = `MessageSid=${sid}&MessageStatus=${status}`): WebhookToRecord => ({
  provider: "twilio",
  eventKey: `${sid}:${status}`,
  kind: status,
  providerMessageId: sid,
  raw,
  apply: true,
});

/** The pool, counting the statements the intake sends through it. */
function countingPool(): { sql: Sql; statements: () => number } {
  let statements = 0;
  const pool = server.database.pool;
  const sql = { query: (...args: Parameters<Sql["query"]>) => (statements++, (pool.query as (...a: unknown[]) => unknown)(...args)) } as Sql;
  return { sql, statements: () => statements };
}

async function recorded(prefix: string): Promise<{ rows: number; jobs: number }> {
  const { rows } = await server.database.pool.query<{ rows: number; jobs: number }>(
    `SELECT (SELECT count(*)::int FROM herald.webhook_events WHERE event_key LIKE $1 || '%') AS rows,
            (SELECT count(DISTINCT j.id)::int FROM graphile_worker._private_jobs j
               JOIN graphile_worker._private_tasks t ON t.id = j.task_id
               JOIN herald.webhook_events w ON (j.payload::jsonb)->'ids' @> to_jsonb(ARRAY[w.id::text])
              WHERE t.identifier = 'apply_webhook_events' AND w.event_key LIKE $1 || '%') AS jobs`,
    [prefix],
  );
  return rows[0]!;
}

describe("the webhook intake", () => {
  it("records a flood in a few group writes, each webhook answered only once committed, a repeat as null", async () => {
    const { sql, statements } = countingPool();
    const intake = createWebhookIntake(sql);
    const flood = Array.from({ length: 300 }, (_, i) => twilioCallback(`SMflood${i}`));
    const answers = await Promise.all([...flood, twilioCallback("SMflood7")].map((w) => intake.record(w)));

    expect(answers.slice(0, 300)).toEqual(flood.map(() => ({ id: expect.stringMatching(/^\d+$/) })));
    expect(answers[300]).toBeNull();
    expect(new Set(answers.map((a) => a?.id)).size).toBe(301); // 300 ids and the repeat's undefined
    // The first webhook is written alone, at once; the rest waited for it and went in one or two groups.
    expect(statements()).toBeLessThanOrEqual(3);
    expect(await recorded("SMflood")).toEqual({ rows: 300, jobs: statements() });
  });

  it("writes a lone webhook at once and one after another as they come", async () => {
    const { sql, statements } = countingPool();
    const intake = createWebhookIntake(sql);
    expect(await intake.record(twilioCallback("SMlone1"))).toEqual({ id: expect.any(String) });
    expect(await intake.record(twilioCallback("SMlone2"))).toEqual({ id: expect.any(String) });
    expect(statements()).toBe(2);
  });

  it("fails only the webhook Postgres refuses, not the others written in its group", async () => {
    const intake = createWebhookIntake(server.database.pool);
    // A NUL byte is the one thing Postgres refuses in text (a genuine provider never sends one).
    const group = [twilioCallback("SMgood1"), twilioCallback("SMbad", "delivered", "MessageSid=SMbad\u0000"), twilioCallback("SMgood2")];
    const outcomes = await Promise.allSettled([twilioCallback("SMfirst"), ...group].map((w) => intake.record(w)));
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(await recorded("SMgood")).toEqual({ rows: 2, jobs: 2 });
    expect(await recorded("SMbad")).toEqual({ rows: 0, jobs: 0 });
  });

  it("rejects every waiting webhook when the database is down, and records again once it is back", async () => {
    const outage = await databaseOutage(server.databaseUrl);
    const intake = createWebhookIntake(server.database.pool);
    try {
      await outage.begin();
      const outcomes = await Promise.allSettled(["SMdown1", "SMdown2", "SMdown3"].map((sid) => intake.record(twilioCallback(sid))));
      expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"]);
    } finally {
      await outage.end();
      await outage.close();
    }
    expect(await intake.record(twilioCallback("SMdown1"))).toEqual({ id: expect.any(String) });
    expect(await recorded("SMdown")).toEqual({ rows: 1, jobs: 1 });
  });
});

describe("the webhook routes' admission", () => {
  it("answers 503 with Retry-After beyond its limit, counts the refusal, and admits again once a webhook is answered", async () => {
    const gates: Array<() => void> = [];
    const app = express();
    app.post("/hook", webhookAdmission("ses", 1, pino({ level: "silent" })), (_req, res) => void gates.push(() => res.end()));
    const listener = app.listen(0, "127.0.0.1");
    await new Promise((r) => listener.once("listening", r));
    const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/hook`;
    const refusedBefore = await refusals();
    try {
      const held = fetch(url, { method: "POST" });
      while (gates.length === 0) await new Promise((r) => setTimeout(r, 5));
      const refused = await fetch(url, { method: "POST" });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(await refused.json()).toEqual({ error: { code: "unavailable", message: expect.any(String) } });
      expect(await refusals()).toBe(refusedBefore + 1);

      gates.shift()!();
      expect((await held).status).toBe(200);
      const admitted = fetch(url, { method: "POST" });
      while (gates.length === 0) await new Promise((r) => setTimeout(r, 5));
      gates.shift()!();
      expect((await admitted).status).toBe(200);
    } finally {
      listener.close();
    }
  });
});

async function refusals(): Promise<number> {
  const metric = await processRegistry.getSingleMetric("herald_webhooks_refused_total")!.get();
  return metric.values.find((v) => v.labels.provider === "ses")?.value ?? 0;
}
