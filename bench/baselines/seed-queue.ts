import pg from "pg";

/**
 * The seed's design (seeds/000), written plainly: one table is the queue, a partial index on
 * the rows in flight, drained oldest first, and every row gets its own attempt — its own
 * UPDATE to mark it sent and its own INSERT into the event log, as the seed's attemptSend does.
 * Given its best footing: several drainers claiming with FOR UPDATE SKIP LOCKED (the seed has
 * one cron call), rows read in the claim (the seed re-reads each row), prepared statements, one
 * commit per claimed batch, and a send that costs nothing.
 */
export const SEED_QUEUE_SCHEMA = `
  CREATE SCHEMA IF NOT EXISTS bench_baseline;
  CREATE TABLE IF NOT EXISTS bench_baseline.seed_notifications (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id         text        NOT NULL,
    type            text        NOT NULL,
    title           text        NOT NULL,
    body            text        NOT NULL,
    data            jsonb       NOT NULL DEFAULT '{}'::jsonb,
    channel         text        NOT NULL DEFAULT 'push',
    status          text        NOT NULL DEFAULT 'pending',
    attempt_count   int         NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    failed_reason   text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz,
    delivered_at    timestamptz,
    opened_at       timestamptz,
    read_at         timestamptz
  );
  CREATE INDEX IF NOT EXISTS seed_notifications_due_idx
    ON bench_baseline.seed_notifications (next_attempt_at) WHERE status IN ('pending', 'retrying');
  CREATE TABLE IF NOT EXISTS bench_baseline.seed_notification_events (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    notification_id uuid        NOT NULL REFERENCES bench_baseline.seed_notifications (id) ON DELETE CASCADE,
    user_id         text        NOT NULL,
    event           text        NOT NULL,
    meta            jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at      timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX IF NOT EXISTS seed_notification_events_notification_idx
    ON bench_baseline.seed_notification_events (notification_id)`;

/** The settings the seed's design drains fastest with on the bench machine (see bench/README.md). */
export const SEED_DRAINERS = 4;
export const SEED_CLAIM_LIMIT = 500;

const CLAIM = {
  name: "seed_claim",
  text: `SELECT id, user_id, channel, title, body, data, attempt_count FROM bench_baseline.seed_notifications
          WHERE status IN ('pending', 'retrying') AND next_attempt_at <= now()
          ORDER BY next_attempt_at
          LIMIT $1
            FOR UPDATE SKIP LOCKED`,
};
const MARK_SENT = {
  name: "seed_mark_sent",
  text: `UPDATE bench_baseline.seed_notifications
            SET status = 'sent', attempt_count = attempt_count + 1, sent_at = now(), failed_reason = NULL
          WHERE id = $1`,
};
const LOG_EVENT = {
  name: "seed_log_event",
  text: "INSERT INTO bench_baseline.seed_notification_events (notification_id, user_id, event, meta) VALUES ($1, $2, 'sent', $3)",
};

interface SeedRow {
  id: string;
  user_id: string;
  channel: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  attempt_count: number;
}

/** What the seed's channel interface returns; the bench's channel accepts everything at once. */
const send = async (_row: SeedRow) => ({ success: true, invalidTokens: [] as string[] });

export interface SeedQueue {
  /** Inserts `count` pending rows (setup, not timed). */
  enqueue(count: number, users: readonly string[]): Promise<void>;
  /** Drains every due row with the drainers; resolves when the last one finds nothing due. */
  drain(): Promise<{ durationMs: number; sent: number }>;
  stop(): Promise<void>;
}

export async function openSeedQueue(url: string, drainers = SEED_DRAINERS, limit = SEED_CLAIM_LIMIT): Promise<SeedQueue> {
  const clients = Array.from({ length: drainers + 1 }, () => new pg.Client({ connectionString: url, application_name: "bench-seed-queue" }));
  await Promise.all(clients.map((c) => c.connect()));
  const [setup, ...workers] = clients as [pg.Client, ...pg.Client[]];

  const drainOne = async (client: pg.Client): Promise<number> => {
    let sent = 0;
    for (;;) {
      await client.query("BEGIN");
      const { rows } = await client.query<SeedRow>({ ...CLAIM, values: [limit] });
      for (const row of rows) {
        const result = await send(row);
        if (!result.success) throw new Error("the bench channel never fails");
        await client.query({ ...MARK_SENT, values: [row.id] });
        await client.query({ ...LOG_EVENT, values: [row.id, row.user_id, JSON.stringify({ attempt: row.attempt_count + 1 })] });
      }
      await client.query("COMMIT");
      sent += rows.length;
      if (rows.length === 0) return sent;
    }
  };

  return {
    enqueue: async (count, users) => {
      await setup.query(
        `INSERT INTO bench_baseline.seed_notifications (user_id, type, title, body, data, channel)
         SELECT ($2::text[])[1 + (g % cardinality($2::text[]))], 'bench.event', 't', 'b', jsonb_build_object('n', g),
                (ARRAY['push', 'email', 'sms'])[1 + g % 3]
           FROM generate_series(1, $1::int) g`,
        [count, users],
      );
    },
    drain: async () => {
      const started = performance.now();
      const counts = await Promise.all(workers.map(drainOne));
      return { durationMs: performance.now() - started, sent: counts.reduce((a, b) => a + b, 0) };
    },
    stop: async () => {
      await Promise.all(clients.map((c) => c.end()));
    },
  };
}
