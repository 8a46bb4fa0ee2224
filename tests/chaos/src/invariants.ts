import { STATUS_TABLE } from "@herald/core";
import type { Sql } from "@herald/db";

/** What one scenario run measured; the JSON summary `pnpm test:chaos` prints. */
export interface ScenarioSummary {
  scenario: string;
  /** Notifications the workload should have created. */
  expected: number;
  notifications: number;
  /** Missing rows, rows not settled, and rows Herald calls sent that no provider accepted. */
  lost: number;
  /** Accepted provider requests beyond the first, per notification and address. */
  duplicates: number;
  /** Accepted requests a fault left unrecorded (kills between accept and commit, dropped answers). */
  duplicate_budget: number;
  /** Status changes to a lower rank (an audited dead-letter replay excepted). */
  status_regressions: number;
  /** Accepted sends to an address after its suppression or opt-out committed. */
  sends_after_opt_out: number;
  /** graphile-worker jobs still locked once the run is over. */
  locked_jobs: number;
  /** Event to the provider's first acceptance, 95th percentile. */
  p95_ms: number | null;
  /** The oldest lock seen while the run went on. */
  max_lock_age_s: number;
  /** Requests the simulator received, SDK-internal retries and token exchanges included. */
  provider_requests: number;
  statuses: Record<string, number>;
  /** Webhook scenarios: requests posted to Herald's webhook endpoints. */
  webhook_requests?: number;
  /** Webhook scenarios: the answers' 99th percentile. Reported; asserted only under `--long`. */
  webhook_p99_ms?: number;
  /** Webhook scenarios: downloads of SNS's signing certificate. */
  certificate_fetches?: number;
}

/** The invariants, in SQL over Herald's tables and the harness's (instrumentation.ts). */
export async function checkInvariants(
  sql: Sql,
  scenario: { name: string; expected: number; duplicateBudget: number; maxLockAgeS: number },
): Promise<ScenarioSummary> {
  const ranks = Object.entries(STATUS_TABLE).map(([status, info]) => ({ status, rank: info.rank }));
  const { rows } = await sql.query(
    `WITH accepted AS (
       SELECT notification_id, address, count(*) AS n, min(at) AS first_at
         FROM chaos.ledger WHERE accepted AND provider <> 'oauth' GROUP BY notification_id, address
     ), ranks AS (
       SELECT status, rank FROM jsonb_to_recordset($1::jsonb) AS r(status text, rank int)
     )
     SELECT
       (SELECT count(*) FROM herald.notifications)::int AS notifications,
       (SELECT count(*) FROM herald.notifications WHERE status = 'pending' OR dispatch_state <> 'done')::int AS unsettled,
       (SELECT count(*) FROM herald.notifications n WHERE n.status = 'sent'
           AND NOT EXISTS (SELECT 1 FROM accepted a WHERE a.notification_id = n.id))::int AS sent_unaccepted,
       (SELECT coalesce(sum(n - 1), 0) FROM accepted)::int AS duplicates,
       (SELECT count(*) FROM chaos.status_changes c
          JOIN ranks f ON f.status = c.from_status JOIN ranks t ON t.status = c.to_status
         WHERE t.rank < f.rank
           AND NOT (c.from_status = 'dead' AND EXISTS (
             SELECT 1 FROM herald.audit_log a WHERE a.action LIKE 'dead_letters.%' AND a.at <= c.at)))::int AS regressions,
       (SELECT count(*) FROM chaos.ledger l
          JOIN herald.notifications n ON n.id = l.notification_id
          JOIN chaos.consent_changes c ON c.channel = n.channel AND l.at > c.committed_at
           AND ((c.kind = 'suppression' AND c.address = l.address)
             OR (c.kind = 'opt_out' AND c.user_id = n.user_id AND c.category = n.category))
         WHERE l.accepted)::int AS sends_after_opt_out,
       (SELECT count(*) FROM graphile_worker._private_jobs WHERE locked_at IS NOT NULL)::int AS locked_jobs,
       (SELECT percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM a.first_at - n.created_at) * 1000)
          FROM accepted a JOIN herald.notifications n ON n.id = a.notification_id) AS p95_ms,
       (SELECT count(*) FROM chaos.ledger)::int AS provider_requests,
       (SELECT jsonb_object_agg(status, n) FROM (SELECT status, count(*) AS n FROM herald.notifications GROUP BY status) s) AS statuses`,
    [JSON.stringify(ranks)],
  );
  const r = rows[0] as Record<string, unknown>;
  const notifications = r.notifications as number;
  return {
    scenario: scenario.name,
    expected: scenario.expected,
    notifications,
    lost: Math.max(0, scenario.expected - notifications) + (r.unsettled as number) + (r.sent_unaccepted as number),
    duplicates: r.duplicates as number,
    duplicate_budget: scenario.duplicateBudget,
    status_regressions: r.regressions as number,
    sends_after_opt_out: r.sends_after_opt_out as number,
    locked_jobs: r.locked_jobs as number,
    p95_ms: r.p95_ms === null ? null : Math.round(r.p95_ms as number),
    max_lock_age_s: Math.round(scenario.maxLockAgeS * 10) / 10,
    provider_requests: r.provider_requests as number,
    statuses: (r.statuses ?? {}) as Record<string, number>,
  };
}
