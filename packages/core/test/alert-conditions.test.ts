import { describe, expect, it } from "vitest";
import { evaluateAlertConditions, MIN_RATE_VOLUME, type AlertMeasures, type AlertThresholds } from "../src/alerts/alert-conditions.ts";

const NOW = new Date("2026-12-01T12:00:00.000Z");
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000);
const THRESHOLDS: AlertThresholds = { deadLetterDepth: 100, breakerOpenMinutes: 5, complaintRatePercent: 0.1, bounceRatePercent: 5, backlogAgeMinutes: 10 };
const QUIET: AlertMeasures = { deadLetters: 0, openBreakers: [], email: { sent: 0, bounced: 0, complained: 0 }, backlog: [] };

describe("evaluateAlertConditions", () => {
  it("finds nothing in a quiet workspace", () => {
    expect(evaluateAlertConditions(QUIET, THRESHOLDS, NOW)).toEqual([]);
  });

  it("raises dead-letter depth at the threshold, not below", () => {
    expect(evaluateAlertConditions({ ...QUIET, deadLetters: 99 }, THRESHOLDS, NOW)).toEqual([]);
    expect(evaluateAlertConditions({ ...QUIET, deadLetters: 100 }, THRESHOLDS, NOW)).toEqual([
      { kind: "dead_letter_depth", subject: "", value: 100, threshold: 100, message: "100 dead letters waiting (threshold 100)" },
    ]);
  });

  it("raises a breaker only once it has been open for the threshold's minutes, one per breaker", () => {
    const measures = { ...QUIET, openBreakers: [{ key: "ses-email", openedAt: minutesAgo(4.9) }, { key: "twilio-sms", openedAt: minutesAgo(7.5) }] };
    expect(evaluateAlertConditions(measures, THRESHOLDS, NOW)).toEqual([
      { kind: "breaker_open", subject: "twilio-sms", value: 7, threshold: 5, message: "The twilio-sms circuit has been open for 7 minutes (threshold 5)" },
    ]);
  });

  it("raises the complaint rate above 0.1 % (2 in 1,000) and leaves 1 in 1,000 alone", () => {
    const at = (complained: number) => evaluateAlertConditions({ ...QUIET, email: { sent: 1000, bounced: 0, complained } }, THRESHOLDS, NOW);
    expect(at(1)).toEqual([]);
    expect(at(2)).toEqual([
      {
        kind: "complaint_rate",
        subject: "email",
        value: 0.2,
        threshold: 0.1,
        message: "Email complaint rate 0.20 % over the last 7 days (2 of 1000 sent; threshold 0.1 %)",
      },
    ]);
  });

  it("raises the bounce rate above its threshold", () => {
    const [condition] = evaluateAlertConditions({ ...QUIET, email: { sent: 1000, bounced: 60, complained: 0 } }, THRESHOLDS, NOW);
    expect(condition).toMatchObject({ kind: "bounce_rate", subject: "email", value: 6, threshold: 5 });
  });

  it("waits for enough email volume before judging a rate", () => {
    const tiny = { ...QUIET, email: { sent: MIN_RATE_VOLUME - 1, bounced: 50, complained: 50 } };
    expect(evaluateAlertConditions(tiny, THRESHOLDS, NOW)).toEqual([]);
  });

  it("raises backlog age per channel and lane, ignoring lanes with nothing due", () => {
    const measures = {
      ...QUIET,
      backlog: [
        { channel: "email", lane: "bulk", oldestDueAt: minutesAgo(12) },
        { channel: "email", lane: "critical", oldestDueAt: minutesAgo(9) },
        { channel: "sms", lane: "bulk", oldestDueAt: null },
      ],
    };
    expect(evaluateAlertConditions(measures, THRESHOLDS, NOW)).toEqual([
      {
        kind: "backlog_age",
        subject: "email:bulk",
        value: 12,
        threshold: 10,
        message: "The bulk email backlog's oldest notification has waited 12 minutes (threshold 10)",
      },
    ]);
  });
});
