/** The rollup counters a rate is computed from (a subset of the daily rollup's columns). */
export interface RateCounters {
  sent: number;
  delivered: number;
  bounced: number;
  opened: number;
  clicked: number;
  unsubscribed: number;
  complained: number;
}

/**
 * Each rate over the step it can only follow: an open needs a delivery, so opens divide by
 * delivered, not by sent; a bounce is a send that did not arrive, so bounces divide by sent.
 * Null, shown as "—", when the denominator is zero: 0 % would claim a measurement.
 */
export interface Rates {
  /** delivered / sent */
  deliveryRate: number | null;
  /** opened (by people, not privacy-proxy prefetches) / delivered */
  openRate: number | null;
  /** clicked / delivered */
  clickRate: number | null;
  /** clicked / opened */
  clickToOpenRate: number | null;
  /** bounced / sent */
  bounceRate: number | null;
  /** complained / delivered: a spam report needs an inbox */
  complaintRate: number | null;
  /** unsubscribed / delivered */
  unsubscribeRate: number | null;
}

/** numerator / denominator, or null when the denominator is zero (or not a count). */
export function rate(numerator: number, denominator: number): number | null {
  if (!(denominator > 0) || !Number.isFinite(numerator)) return null;
  return numerator / denominator;
}

export function ratesOf(c: RateCounters): Rates {
  return {
    deliveryRate: rate(c.delivered, c.sent),
    openRate: rate(c.opened, c.delivered),
    clickRate: rate(c.clicked, c.delivered),
    clickToOpenRate: rate(c.clicked, c.opened),
    bounceRate: rate(c.bounced, c.sent),
    complaintRate: rate(c.complained, c.delivered),
    unsubscribeRate: rate(c.unsubscribed, c.delivered),
  };
}

/**
 * What mailbox providers and SES hold a sender to (docs/analytics.md cites them): above these,
 * SES puts the account under review and Gmail and Yahoo start rejecting bulk mail.
 */
export const RATE_THRESHOLDS = {
  /** Gmail's and Yahoo's bulk-sender rule: user-reported spam below 0.3 %. */
  complaintRate: 0.003,
  /** SES reviews an account whose bounce rate reaches 5 %. */
  bounceRate: 0.05,
} as const;

/** A rate as a percentage with the given decimals ("12.5 %"), or "—" when there is none. */
export function formatRate(value: number | null, decimals = 1): string {
  return value === null ? "—" : `${(value * 100).toFixed(decimals)} %`;
}
