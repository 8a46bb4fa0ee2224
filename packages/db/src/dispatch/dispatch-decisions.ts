import type { Sql } from "../sql.ts";

/**
 * What the dispatcher decided for one notification, before or after the provider call. Applied
 * set-based by applyDispatchDecisions: one statement for a whole batch, events included.
 */
export type DispatchDecision =
  /** A gate refused it: settled as skipped with the reason code. */
  | { id: string; kind: "skip"; reason: string; detail?: Record<string, unknown> }
  /** Not now: quiet hours, a frequency cap, a breaker or an unconfigured channel. No attempt spent. */
  | { id: string; kind: "defer"; reason: string; until: Date; outage?: boolean; detail?: Record<string, unknown> }
  /** No rate-limit token yet: back to the queue, silently, no attempt spent. */
  | { id: string; kind: "wait"; until: Date }
  /** About to call the provider: the attempt is counted (and committed) before the call. */
  | { id: string; kind: "attempt"; provider: string; address: string; rendered: Record<string, unknown> }
  | { id: string; kind: "sent"; provider: string; providerMessageId: string; latencyMs: number; providerCode?: string }
  | { id: string; kind: "retry"; provider: string; until: Date; reason: string; latencyMs: number; providerCode?: string }
  /** The provider asked Herald to slow down (a throttle, a Retry-After): retried then, its attempt refunded. */
  | { id: string; kind: "throttled"; provider: string; until: Date; reason: string; latencyMs: number; providerCode?: string }
  /** Dead-lettered: a permanent error, attempts or age exhausted, or content that cannot render. */
  | { id: string; kind: "dead"; reason: string; provider?: string; latencyMs?: number; providerCode?: string; error?: string }
  /** The provider is out (credentials, account): the call happened but its attempt is refunded. */
  | { id: string; kind: "outage"; provider: string; until: Date; reason: string; latencyMs: number; providerCode?: string }
  /** Counted as an attempt, then never called (the batch stopped first): refunded, back to the queue. */
  | { id: string; kind: "withdrawn"; reason: string; until: Date };

const OUTAGE_DEFERRALS = ["breaker_open", "channel_unconfigured", "credentials_outage"];

/**
 * Applies a batch of decisions in one statement: status moves forward only, dispatch_state
 * follows the machinery, and every step appends to notification_events. Rows no longer pending
 * (a concurrent cancel, say) are left alone.
 */
export async function applyDispatchDecisions(sql: Sql, decisions: readonly DispatchDecision[]): Promise<number> {
  if (decisions.length === 0) return 0;
  const rows = decisions.map((d) => ({
    id: d.id,
    kind: d.kind,
    reason: "reason" in d ? d.reason : null,
    until: "until" in d ? d.until.toISOString() : null,
    provider: "provider" in d ? (d.provider ?? null) : null,
    address: d.kind === "attempt" ? d.address : null,
    rendered: d.kind === "attempt" ? d.rendered : null,
    provider_message_id: d.kind === "sent" ? d.providerMessageId : null,
    provider_code: "providerCode" in d ? (d.providerCode ?? null) : null,
    latency_ms: "latencyMs" in d && d.latencyMs !== undefined ? Math.round(d.latencyMs) : null,
    error: d.kind === "dead" ? (d.error ?? null) : null,
    detail: "detail" in d ? (d.detail ?? null) : null,
    outage: d.kind === "outage" || (d.kind === "defer" && (d.outage === true || OUTAGE_DEFERRALS.includes(d.reason))),
  }));
  const { rowCount } = await sql.query(
    { name: "herald_apply_dispatch_decisions", text: `WITH d AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS d(
         id bigint, kind text, reason text, until timestamptz, provider text, address text, rendered jsonb,
         provider_message_id text, provider_code text, latency_ms integer, error text, detail jsonb, outage boolean)
     ), upd AS (
       UPDATE herald.notifications n SET
         status = CASE d.kind WHEN 'skip' THEN 'skipped' WHEN 'dead' THEN 'dead'
                    WHEN 'sent' THEN CASE WHEN herald.status_rank(n.status) < herald.status_rank('sent') THEN 'sent' ELSE n.status END
                    ELSE n.status END,
         reason = CASE WHEN d.kind IN ('skip', 'dead', 'defer', 'outage') THEN d.reason
                       WHEN d.kind = 'sent' THEN NULL ELSE n.reason END,
         dispatch_state = CASE d.kind WHEN 'skip' THEN 'done' WHEN 'dead' THEN 'done' WHEN 'sent' THEN 'done'
                            WHEN 'defer' THEN 'deferred' WHEN 'outage' THEN 'deferred' WHEN 'wait' THEN 'queued'
                            WHEN 'withdrawn' THEN 'queued' WHEN 'retry' THEN 'retry_wait' WHEN 'throttled' THEN 'retry_wait' ELSE n.dispatch_state END,
         next_attempt_at = CASE WHEN d.kind IN ('defer', 'wait', 'retry', 'throttled', 'outage', 'withdrawn') THEN d.until ELSE n.next_attempt_at END,
         job_queued_at = CASE WHEN d.kind = 'attempt' THEN n.job_queued_at END,
         in_flight_job = CASE WHEN d.kind = 'attempt' THEN n.in_flight_job END,
         deferred_since = CASE WHEN d.kind IN ('defer', 'wait', 'outage', 'withdrawn') THEN now() END,
         outage_since = CASE WHEN d.outage THEN coalesce(n.outage_since, now())
                             WHEN d.kind = 'sent' THEN NULL ELSE n.outage_since END,
         attempt_count = n.attempt_count + CASE d.kind WHEN 'attempt' THEN 1 WHEN 'outage' THEN -1 WHEN 'withdrawn' THEN -1 WHEN 'throttled' THEN -1 ELSE 0 END,
         first_attempt_at = CASE WHEN d.kind = 'attempt' THEN coalesce(n.first_attempt_at, herald.clock()) ELSE n.first_attempt_at END,
         provider = coalesce(d.provider, n.provider),
         address = CASE WHEN d.kind = 'attempt' THEN d.address ELSE n.address END,
         rendered = CASE WHEN d.kind = 'attempt' THEN d.rendered ELSE n.rendered END,
         provider_message_id = CASE WHEN d.kind = 'sent' THEN d.provider_message_id ELSE n.provider_message_id END,
         sent_at = CASE WHEN d.kind = 'sent' THEN coalesce(n.sent_at, herald.clock()) ELSE n.sent_at END,
         last_error = CASE WHEN d.kind IN ('retry', 'throttled', 'dead', 'outage') THEN coalesce(d.error, d.reason) ELSE n.last_error END,
         updated_at = now()
         FROM d
        WHERE n.id = d.id AND n.status = 'pending'
       RETURNING n.id AS nid, d.kind, d.reason, d.until, d.provider, d.provider_code, d.latency_ms,
                 d.provider_message_id, d.error, d.detail, n.attempt_count AS attempts
     ), logged AS (
       INSERT INTO herald.notification_events (notification_id, type, detail)
       SELECT u.nid, e.type, jsonb_strip_nulls(e.detail)
         FROM upd u
        CROSS JOIN LATERAL (VALUES
          -- The provider call itself, with its answer and latency.
          (CASE WHEN u.kind IN ('sent', 'retry', 'throttled', 'outage') OR (u.kind = 'dead' AND u.provider IS NOT NULL) THEN 'attempt' END,
           jsonb_build_object('outcome', u.kind, 'provider', u.provider, 'providerCode', u.provider_code,
                              'latencyMs', u.latency_ms, 'attempt', u.attempts, 'reason', u.reason)),
          (CASE u.kind WHEN 'skip' THEN 'skipped' WHEN 'defer' THEN 'deferred' WHEN 'outage' THEN 'deferred' WHEN 'withdrawn' THEN 'deferred'
                       WHEN 'sent' THEN 'sent' WHEN 'retry' THEN 'retry_scheduled' WHEN 'throttled' THEN 'retry_scheduled' WHEN 'dead' THEN 'dead' END,
           jsonb_build_object('reason', u.reason, 'until', u.until, 'providerMessageId', u.provider_message_id,
                              'error', u.error) || coalesce(u.detail, '{}'::jsonb))
        ) AS e(type, detail)
        WHERE e.type IS NOT NULL
     )
     SELECT 1 FROM upd`, values: [JSON.stringify(rows)] },
  );
  return rowCount ?? 0;
}
