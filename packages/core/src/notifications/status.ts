import { z } from "zod";

/** A notification's lifecycle; it only ever moves forward by rank. */
export const STATUSES = ["pending", "sent", "delivered", "failed", "bounced", "skipped", "dead", "canceled"] as const;
export const StatusSchema = z.enum(STATUSES);
export type Status = z.infer<typeof StatusSchema>;

/** Rank, whether the status is settled, and what it means in plain words. */
export interface StatusInfo {
  rank: number;
  settled: boolean;
  meaning: string;
}

// Provider webhooks arrive out of order (Twilio says so outright), so a status may only be
// replaced by one of strictly higher rank: a late "sent" must never overwrite "delivered".
// delivered, failed and bounced share a rank: among them the report of what happened last, by
// the provider's time, wins (see advanceStatus), so arrival order never decides the outcome.
// skipped, dead and canceled outrank everything: once the engine gives up, a stray callback
// cannot revive the notification.
export const STATUS_TABLE: Readonly<Record<Status, StatusInfo>> = {
  pending: { rank: 0, settled: false, meaning: "created, not yet handed to a provider" },
  sent: { rank: 1, settled: true, meaning: "a provider accepted it" },
  delivered: { rank: 2, settled: true, meaning: "the provider (or the app's ack) reports delivery" },
  failed: { rank: 2, settled: true, meaning: "the provider reports it undeliverable after acceptance" },
  bounced: { rank: 2, settled: true, meaning: "email hard bounce" },
  skipped: { rank: 9, settled: true, meaning: "a gate refused it (reason code stored)" },
  dead: { rank: 9, settled: true, meaning: "dead-lettered (permanent error, attempts or age exhausted)" },
  canceled: { rank: 9, settled: true, meaning: "its broadcast was canceled, or its user erased, before it was sent" },
};

/** The status's rank in the forward-only order. */
export function statusRank(status: Status): number {
  return STATUS_TABLE[status].rank;
}

/** Whether the engine is done with the notification (everything but pending). */
export function isSettled(status: Status): boolean {
  return STATUS_TABLE[status].settled;
}

/** A status and when it happened by the provider's clock; null when the report does not say (Twilio's callbacks). */
export interface StatusReport {
  status: Status;
  at: Date | null;
}

// The outcomes that share a rank, the worse news last: it wins a tie.
const OUTCOMES: readonly Status[] = ["delivered", "failed", "bounced"];

/**
 * The status to store when `incoming` is reported while the row holds `current`. A higher rank
 * wins; between two outcomes the later one does (an asynchronous bounce after a delivery), the
 * worse at the same instant, and without both times the row keeps its own. The same rule as
 * `applyStatusEvents` in `@herald/db`, which applies it in SQL.
 */
export function advanceStatus(current: StatusReport, incoming: StatusReport): Status {
  const byRank = statusRank(incoming.status) - statusRank(current.status);
  if (byRank !== 0) return byRank > 0 ? incoming.status : current.status;
  const [was, is] = [OUTCOMES.indexOf(current.status), OUTCOMES.indexOf(incoming.status)];
  if (was < 0 || is < 0 || was === is || !current.at || !incoming.at) return current.status;
  const later = incoming.at.getTime() - current.at.getTime();
  return later > 0 || (later === 0 && is > was) ? incoming.status : current.status;
}

/** The delivery machinery's state; unlike status it may go back and forth. */
export const DISPATCH_STATES = ["queued", "in_flight", "retry_wait", "deferred", "paused", "done"] as const;
export const DispatchStateSchema = z.enum(DISPATCH_STATES);
export type DispatchState = z.infer<typeof DispatchStateSchema>;

/** One line per dispatch state, for the dashboard and Explain. */
export const DISPATCH_STATE_MEANINGS: Readonly<Record<DispatchState, string>> = {
  queued: "waiting for a worker to pick it up",
  in_flight: "a worker is calling the provider",
  retry_wait: "an attempt failed transiently; waiting for the next one",
  deferred: "held back by quiet hours, a frequency cap, a rate limit or a provider outage; not an attempt",
  paused: "held because an operator paused its broadcast or channel",
  done: "nothing left to do; the status is settled",
};
