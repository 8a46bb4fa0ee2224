import type { Sql } from "../sql.ts";
import { ensureUser } from "./users.ts";

export interface QuietHoursInput {
  start: string;
  end: string;
  timezone?: string | undefined;
  overrides?: ReadonlyArray<{ category: string; channel: string; start: string; end: string }> | undefined;
}

/** Replaces a user's quiet hours (the default window and its overrides); null removes them. */
export async function setQuietHours(sql: Sql, externalUserId: string, input: QuietHoursInput | null): Promise<void> {
  const userId = await ensureUser(sql, externalUserId);
  const rows = input
    ? [
        { category: "*", channel: "*", start: input.start, end: input.end, timezone: input.timezone ?? null },
        ...(input.overrides ?? []).map((o) => ({ ...o, timezone: input.timezone ?? null })),
      ]
    : [];
  await sql.query(
    // One statement: upsert the new windows, delete the others (a delete and an insert of the
    // same key in one statement would collide).
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($2::jsonb) AS q(category text, channel text, start text, "end" text, timezone text)
     ), upserted AS (
       INSERT INTO herald.quiet_hours (user_id, category, channel, start_time, end_time, timezone)
       SELECT $1, q.category, q.channel, q.start::time, q."end"::time, q.timezone FROM input q
       ON CONFLICT (user_id, category, channel) DO UPDATE SET start_time = EXCLUDED.start_time,
         end_time = EXCLUDED.end_time, timezone = EXCLUDED.timezone, updated_at = now()
     )
     DELETE FROM herald.quiet_hours h
      WHERE h.user_id = $1 AND NOT EXISTS (SELECT 1 FROM input q WHERE q.category = h.category AND q.channel = h.channel)`,
    [userId, JSON.stringify(rows)],
  );
}
