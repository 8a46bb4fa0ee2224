import pg from "pg";
import { SEED_QUEUE_SCHEMA } from "./seed-queue.ts";

/**
 * The seed's broadcast() (seeds/000, section 8), written plainly: resolve the segment to user ids,
 * then enqueue() each user in batches of 25 with Promise.all. enqueue() reads the user's
 * preferences, inserts the row, logs "created", and calls attemptSend() at once, which re-reads
 * the row, gathers the user's active tokens, sends, marks the row sent and logs "sent". Given its
 * best footing: a pooled connection per in-flight user, prepared statements, and a send that
 * costs nothing.
 */
export const SEED_BROADCAST_SCHEMA = `
  ${SEED_QUEUE_SCHEMA};
  CREATE TABLE IF NOT EXISTS bench_baseline.seed_preferences (
    user_id      text PRIMARY KEY,
    push_enabled boolean NOT NULL DEFAULT true,
    marketing    boolean NOT NULL DEFAULT false
  );
  CREATE TABLE IF NOT EXISTS bench_baseline.seed_device_tokens (
    token   text PRIMARY KEY,
    user_id text    NOT NULL,
    active  boolean NOT NULL DEFAULT true
  );
  CREATE INDEX IF NOT EXISTS seed_device_tokens_active_idx
    ON bench_baseline.seed_device_tokens (user_id) WHERE active`;

/** The seed's batch width. */
export const SEED_BATCH = 25;

const SEGMENT_ALL = "SELECT DISTINCT user_id FROM bench_baseline.seed_device_tokens WHERE active";
const READ_PREFS = { name: "seed_prefs", text: "SELECT push_enabled, marketing FROM bench_baseline.seed_preferences WHERE user_id = $1" };
const INSERT_ROW = {
  name: "seed_insert",
  text: `INSERT INTO bench_baseline.seed_notifications (user_id, type, title, body, data, channel)
         VALUES ($1, 'marketing', 'Sale', 'Everything is 20% off', '{}', 'push') RETURNING id`,
};
const LOG_EVENT = { name: "seed_event", text: "INSERT INTO bench_baseline.seed_notification_events (notification_id, user_id, event) VALUES ($1, $2, $3)" };
const LOAD_ROW = { name: "seed_load", text: "SELECT id, user_id, status, title, body, data FROM bench_baseline.seed_notifications WHERE id = $1" };
const ACTIVE_TOKENS = { name: "seed_tokens", text: "SELECT token FROM bench_baseline.seed_device_tokens WHERE user_id = $1 AND active" };
const MARK_SENT = {
  name: "seed_sent",
  text: "UPDATE bench_baseline.seed_notifications SET status = 'sent', attempt_count = attempt_count + 1, sent_at = now() WHERE id = $1",
};

export interface SeedBroadcast {
  /** Runs broadcast() over every user with an active token; resolves with users per second. */
  broadcast(): Promise<{ users: number; seconds: number }>;
  /** Empties the queue tables between rounds (not timed). */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/** Creates the seed's tables with `users` users who each have one active token and said yes to marketing. */
export async function openSeedBroadcast(url: string, users: number): Promise<SeedBroadcast> {
  const pool = new pg.Pool({ connectionString: url, max: SEED_BATCH, application_name: "bench-seed-broadcast" });
  await pool.query(SEED_BROADCAST_SCHEMA);
  await pool.query(
    `INSERT INTO bench_baseline.seed_preferences (user_id, marketing) SELECT 's' || g, true FROM generate_series(1, $1::int) g ON CONFLICT DO NOTHING`,
    [users],
  );
  await pool.query(
    `INSERT INTO bench_baseline.seed_device_tokens (token, user_id) SELECT 'tok-' || g, 's' || g FROM generate_series(1, $1::int) g ON CONFLICT DO NOTHING`,
    [users],
  );
  await pool.query("ANALYZE bench_baseline.seed_preferences; ANALYZE bench_baseline.seed_device_tokens");

  const enqueue = async (userId: string): Promise<"enqueued" | "skipped"> => {
    const prefs = (await pool.query<{ push_enabled: boolean; marketing: boolean }>({ ...READ_PREFS, values: [userId] })).rows[0];
    if (prefs && (!prefs.push_enabled || !prefs.marketing)) return "skipped";
    const id = (await pool.query<{ id: string }>({ ...INSERT_ROW, values: [userId] })).rows[0]!.id;
    await pool.query({ ...LOG_EVENT, values: [id, userId, "created"] });
    await attemptSend(id);
    return "enqueued";
  };
  const attemptSend = async (id: string): Promise<void> => {
    const row = (await pool.query<{ user_id: string; status: string }>({ ...LOAD_ROW, values: [id] })).rows[0]!;
    if (row.status !== "pending" && row.status !== "retrying") return;
    const tokens = (await pool.query<{ token: string }>({ ...ACTIVE_TOKENS, values: [row.user_id] })).rows;
    if (tokens.length === 0) throw new Error("every bench user has a token");
    await pool.query({ ...MARK_SENT, values: [id] });
    await pool.query({ ...LOG_EVENT, values: [id, row.user_id, "sent"] });
  };

  return {
    broadcast: async () => {
      const started = performance.now();
      const ids = (await pool.query<{ user_id: string }>(SEGMENT_ALL)).rows.map((r) => r.user_id);
      const counts = { enqueued: 0, skipped: 0, errors: 0 };
      for (let i = 0; i < ids.length; i += SEED_BATCH) {
        const outcomes = await Promise.all(ids.slice(i, i + SEED_BATCH).map((userId) => enqueue(userId).catch(() => "error" as const)));
        for (const o of outcomes) counts[o === "error" ? "errors" : o]++;
      }
      const seconds = (performance.now() - started) / 1000;
      if (counts.enqueued !== ids.length) throw new Error(`the seed's broadcast enqueued ${counts.enqueued} of ${ids.length} (${counts.errors} errors)`);
      return { users: ids.length, seconds };
    },
    reset: async () => {
      await pool.query("TRUNCATE bench_baseline.seed_notification_events, bench_baseline.seed_notifications");
    },
    stop: () => pool.end(),
  };
}
