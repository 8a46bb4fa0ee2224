import pg from "pg";
import type { BenchEvent } from "../src/workload.ts";

/** Rows per INSERT statement: the batch baseline's statement size. */
export const ROWS_PER_STATEMENT = 100;

const COLUMNS = 4;
const INSERT = {
  name: "bench_baseline_insert_events_100",
  text: `INSERT INTO bench_baseline.events (event_id, user_id, type, payload) VALUES ${Array.from(
    { length: ROWS_PER_STATEMENT },
    (_, r) => `(${Array.from({ length: COLUMNS }, (_, c) => `$${r * COLUMNS + c + 1}`).join(", ")})`,
  ).join(", ")}
         ON CONFLICT (event_id, user_id) DO NOTHING`,
};

/**
 * The batch-ingest baseline: the same table as the single-row baseline (bench_baseline.events,
 * SINGLE_ROW_INSERT_SCHEMA), filled by `concurrency` connections, each committing one prepared
 * 100-row INSERT … ON CONFLICT DO NOTHING at a time (autocommit). No routing, no notifications,
 * no HTTP, no JSON envelope: what bulk loading rows costs this Postgres. `events.length` must be a
 * multiple of ROWS_PER_STATEMENT.
 */
export async function runMultiRowInserts(url: string, events: readonly BenchEvent[], concurrency: number): Promise<{ durationMs: number }> {
  if (events.length % ROWS_PER_STATEMENT !== 0) throw new Error(`runMultiRowInserts: ${events.length} events is not a multiple of ${ROWS_PER_STATEMENT}`);
  const statements = Array.from({ length: events.length / ROWS_PER_STATEMENT }, (_, s) =>
    events.slice(s * ROWS_PER_STATEMENT, (s + 1) * ROWS_PER_STATEMENT).flatMap((e) => [e.eventId, e.userId, e.type, JSON.stringify(e.data)]),
  );
  const clients = Array.from({ length: concurrency }, () => new pg.Client({ connectionString: url, application_name: "bench-baseline" }));
  await Promise.all(clients.map((c) => c.connect()));
  try {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      clients.map(async (client) => {
        for (;;) {
          const i = next++;
          if (i >= statements.length) return;
          await client.query({ ...INSERT, values: statements[i]! });
        }
      }),
    );
    return { durationMs: performance.now() - started };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}
