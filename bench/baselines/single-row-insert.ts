import pg from "pg";
import type { BenchEvent } from "../src/workload.ts";

/**
 * The ingest baseline: what the same Postgres and the same `pg` driver commit when every event
 * is one single-row INSERT … ON CONFLICT DO NOTHING transaction into a table shaped like
 * herald.events — no routing, no notifications, no HTTP. Herald's ingest pays for all of
 * those; this is the ceiling it is compared with.
 */
export const SINGLE_ROW_INSERT_SCHEMA = `
  CREATE SCHEMA IF NOT EXISTS bench_baseline;
  CREATE TABLE IF NOT EXISTS bench_baseline.events (
    event_id    text        NOT NULL,
    user_id     text        NOT NULL,
    type        text        NOT NULL,
    payload     jsonb       NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (event_id, user_id)
  )`;

const INSERT = {
  name: "bench_baseline_insert_event",
  text: `INSERT INTO bench_baseline.events (event_id, user_id, type, payload) VALUES ($1, $2, $3, $4)
         ON CONFLICT (event_id, user_id) DO NOTHING`,
};

export interface InsertRunResult {
  durationMs: number;
  latenciesMs: Float64Array;
}

/** `concurrency` connections (opened before the clock starts), each committing one row at a time. */
export async function runSingleRowInserts(url: string, events: readonly BenchEvent[], concurrency: number): Promise<InsertRunResult> {
  const clients = Array.from({ length: concurrency }, () => new pg.Client({ connectionString: url, application_name: "bench-baseline" }));
  await Promise.all(clients.map((c) => c.connect()));
  try {
    const latencies = new Float64Array(events.length);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      clients.map(async (client) => {
        for (;;) {
          const i = next++;
          if (i >= events.length) return;
          const e = events[i]!;
          const t = performance.now();
          await client.query({ ...INSERT, values: [e.eventId, e.userId, e.type, JSON.stringify(e.data)] });
          latencies[i] = performance.now() - t;
        }
      }),
    );
    return { durationMs: performance.now() - started, latenciesMs: latencies };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}
