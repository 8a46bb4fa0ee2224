import type { Sql } from "../sql.ts";

/** Provider calls in a recent window, counted per channel, lane, provider, outcome and code. */
export interface AttemptCount {
  channel: string;
  lane: string;
  provider: string;
  /** sent | retry | dead | outage */
  outcome: string;
  /** The provider's own error code; '' when it gave none (and for sends). */
  code: string;
  count: number;
}

// Each provider call appends one `attempt` event with its outcome, provider and code. The window
// is found through notification_events_at_brin_idx (only the last minutes' pages are read), and
// each attempt joins its notification by primary key for the channel and lane.
/** Attempts of the last `windowMs`, grouped: the Delivery page's throughput and error rates. */
export async function countRecentAttempts(sql: Sql, windowMs: number): Promise<AttemptCount[]> {
  const { rows } = await sql.query(
    { name: "herald_operations_recent_attempts", text: `SELECT n.channel, n.lane, e.detail ->> 'provider' AS provider, e.detail ->> 'outcome' AS outcome,
            coalesce(e.detail ->> 'providerCode', '') AS code, count(*) AS count
       FROM herald.notification_events e
       JOIN herald.notifications n ON n.id = e.notification_id
      WHERE e.at > now() - make_interval(secs => $1::float8 / 1000) AND e.type = 'attempt'
      GROUP BY 1, 2, 3, 4, 5
      ORDER BY 1, 2, 3, 4, 5`, values: [windowMs] },
  );
  return rows.map((r) => ({ channel: r.channel, lane: r.lane, provider: r.provider ?? "", outcome: r.outcome ?? "", code: r.code, count: Number(r.count) }));
}
