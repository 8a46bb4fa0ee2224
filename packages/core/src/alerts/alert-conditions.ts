/** What the alert evaluation measured, at one moment. */
export interface AlertMeasures {
  /** Notifications dead-lettered and not replayed. */
  deadLetters: number;
  /** Breakers currently open, with when they opened. */
  openBreakers: ReadonlyArray<{ key: string; openedAt: Date }>;
  /** Email sends, bounces and complaints over the rate window (by send day). */
  email: { sent: number; bounced: number; complained: number };
  /** Per channel and lane: when the longest-waiting due notification fell due. */
  backlog: ReadonlyArray<{ channel: string; lane: string; oldestDueAt: Date | null }>;
}

/** The workspace's thresholds (Settings → General, `alerts.*`). */
export interface AlertThresholds {
  deadLetterDepth: number;
  breakerOpenMinutes: number;
  complaintRatePercent: number;
  bounceRatePercent: number;
  backlogAgeMinutes: number;
}

export type AlertKind = "dead_letter_depth" | "breaker_open" | "complaint_rate" | "bounce_rate" | "backlog_age";

/** A condition that holds now; an alert stays open for its (kind, subject) while it does. */
export interface AlertCondition {
  kind: AlertKind;
  /** What it is about: a breaker key, `channel:lane`, or '' for the workspace. */
  subject: string;
  value: number;
  threshold: number;
  message: string;
}

/**
 * Rates below this many email sends in the window are noise (one bounce in ten sends is 10 %),
 * so the rate alerts wait for it.
 */
export const MIN_RATE_VOLUME = 200;

/** Which conditions hold, given what was measured: pure, `now` passed in. */
export function evaluateAlertConditions(measures: AlertMeasures, thresholds: AlertThresholds, now: Date): AlertCondition[] {
  const conditions: AlertCondition[] = [];
  if (measures.deadLetters >= thresholds.deadLetterDepth) {
    conditions.push({
      kind: "dead_letter_depth",
      subject: "",
      value: measures.deadLetters,
      threshold: thresholds.deadLetterDepth,
      message: `${measures.deadLetters} dead letters waiting (threshold ${thresholds.deadLetterDepth})`,
    });
  }
  for (const breaker of measures.openBreakers) {
    const minutes = (now.getTime() - breaker.openedAt.getTime()) / 60_000;
    if (minutes < thresholds.breakerOpenMinutes) continue;
    conditions.push({
      kind: "breaker_open",
      subject: breaker.key,
      value: Math.floor(minutes),
      threshold: thresholds.breakerOpenMinutes,
      message: `The ${breaker.key} circuit has been open for ${Math.floor(minutes)} minutes (threshold ${thresholds.breakerOpenMinutes})`,
    });
  }
  const { sent, bounced, complained } = measures.email;
  if (sent >= MIN_RATE_VOLUME) {
    const rates = [
      { kind: "complaint_rate" as const, count: complained, threshold: thresholds.complaintRatePercent, noun: "complaint" },
      { kind: "bounce_rate" as const, count: bounced, threshold: thresholds.bounceRatePercent, noun: "bounce" },
    ];
    for (const { kind, count, threshold, noun } of rates) {
      const percent = (count / sent) * 100;
      if (percent <= threshold) continue;
      conditions.push({
        kind,
        subject: "email",
        value: percent,
        threshold,
        message: `Email ${noun} rate ${formatPercent(percent)} over the last 7 days (${count} of ${sent} sent; threshold ${threshold} %)`,
      });
    }
  }
  for (const lane of measures.backlog) {
    if (!lane.oldestDueAt) continue;
    const minutes = (now.getTime() - lane.oldestDueAt.getTime()) / 60_000;
    if (minutes < thresholds.backlogAgeMinutes) continue;
    conditions.push({
      kind: "backlog_age",
      subject: `${lane.channel}:${lane.lane}`,
      value: Math.floor(minutes),
      threshold: thresholds.backlogAgeMinutes,
      message: `The ${lane.lane} ${lane.channel} backlog's oldest notification has waited ${Math.floor(minutes)} minutes (threshold ${thresholds.backlogAgeMinutes})`,
    });
  }
  return conditions;
}

function formatPercent(percent: number): string {
  return `${percent.toFixed(percent < 1 ? 2 : 1)} %`;
}
