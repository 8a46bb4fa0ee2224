import { describe, expect, it } from "vitest";
import { normalCdf, twoProportionZTest } from "../../src/broadcasts/z-test.ts";

describe("twoProportionZTest", () => {
  it("matches a hand computation", () => {
    // A: 200 of 1000 (0.20), B: 250 of 1000 (0.25). Pooled p = 450/2000 = 0.225;
    // SE = sqrt(0.225 · 0.775 · (1/1000 + 1/1000)) = sqrt(0.000348750) = 0.0186748;
    // z = 0.05 / 0.0186748 = 2.67740; two-sided p = 2 · (1 − Φ(2.6774)) = 0.007420.
    const r = twoProportionZTest({ successes: 200, trials: 1000 }, { successes: 250, trials: 1000 });
    expect(r.rateA).toBe(0.2);
    expect(r.rateB).toBe(0.25);
    expect(r.z).toBeCloseTo(2.6774, 3);
    expect(r.pValue).toBeCloseTo(0.00742, 4);
    expect(r.verdict).toBe("B wins");
  });

  it("calls A the winner when B is lower, and no difference when p ≥ 0.05", () => {
    expect(twoProportionZTest({ successes: 300, trials: 1000 }, { successes: 240, trials: 1000 }).verdict).toBe("A wins");
    // 0.20 vs 0.21 over 1000 each: z ≈ 0.55, p ≈ 0.58.
    const close = twoProportionZTest({ successes: 200, trials: 1000 }, { successes: 210, trials: 1000 });
    expect(close.pValue).toBeGreaterThan(0.5);
    expect(close.verdict).toBe("no difference");
  });

  it("says too early to tell below 100 trials per group, however large the gap", () => {
    expect(twoProportionZTest({ successes: 1, trials: 50 }, { successes: 40, trials: 50 }).verdict).toBe("too early to tell");
  });

  it("survives empty groups and identical zero rates", () => {
    const empty = twoProportionZTest({ successes: 0, trials: 0 }, { successes: 0, trials: 0 });
    expect(empty).toMatchObject({ z: 0, verdict: "too early to tell" });
    expect(empty.pValue).toBeCloseTo(1, 6);
    expect(twoProportionZTest({ successes: 0, trials: 500 }, { successes: 0, trials: 500 })).toMatchObject({ z: 0, verdict: "no difference" });
  });

  it("has a normal CDF accurate to 1e-6 at known points", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1.644854)).toBeCloseTo(0.05, 6);
  });
});
