import { describe, expect, it } from "vitest";
import { RATE_THRESHOLDS, formatRate, rate, ratesOf } from "../../src/analytics/rates.ts";

const campaign = { sent: 1000, delivered: 800, bounced: 40, opened: 200, clicked: 50, unsubscribed: 4, complained: 2 };

describe("analytics rates", () => {
  it("divides each step by the step it follows", () => {
    expect(ratesOf(campaign)).toEqual({
      deliveryRate: 0.8,
      openRate: 0.25,
      clickRate: 0.0625,
      clickToOpenRate: 0.25,
      bounceRate: 0.04,
      complaintRate: 0.0025,
      unsubscribeRate: 0.005,
    });
  });

  it("divides opens by delivered, not by sent", () => {
    expect(ratesOf({ ...campaign, sent: 10_000 }).openRate).toBe(0.25);
  });

  it("has no rate, rather than 0 %, when the denominator is zero", () => {
    const nothingDelivered = ratesOf({ sent: 12, delivered: 0, bounced: 12, opened: 0, clicked: 0, unsubscribed: 0, complained: 0 });
    expect(nothingDelivered.openRate).toBeNull();
    expect(nothingDelivered.complaintRate).toBeNull();
    expect(nothingDelivered.clickToOpenRate).toBeNull();
    expect(nothingDelivered.bounceRate).toBe(1);
    expect(rate(0, 0)).toBeNull();
    expect(rate(3, -1)).toBeNull();
    expect(rate(0, 5)).toBe(0);
  });

  it("formats a rate as a percentage, and a missing one as a dash", () => {
    expect(formatRate(0.25)).toBe("25.0 %");
    expect(formatRate(0.0025, 2)).toBe("0.25 %");
    expect(formatRate(0)).toBe("0.0 %");
    expect(formatRate(null)).toBe("—");
  });

  it("holds senders to 0.3 % complaints and 5 % bounces", () => {
    expect(RATE_THRESHOLDS).toEqual({ complaintRate: 0.003, bounceRate: 0.05 });
  });
});
