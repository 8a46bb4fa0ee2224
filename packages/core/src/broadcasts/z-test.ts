/** One group's successes out of its trials (opens out of delivered emails, say). */
export interface Proportion {
  successes: number;
  trials: number;
}

export interface ZTestResult {
  rateA: number;
  rateB: number;
  z: number;
  /** Two-sided. */
  pValue: number;
  verdict: "A wins" | "B wins" | "no difference" | "too early to tell";
}

/** Below this many trials in either group a verdict would be noise, whatever z says. */
export const MIN_TRIALS = 100;
const ALPHA = 0.05;

/**
 * The two-proportion z-test with a pooled standard error: is B's rate different from A's?
 * "too early to tell" until both groups have MIN_TRIALS trials; "no difference" when p ≥ 0.05.
 */
export function twoProportionZTest(a: Proportion, b: Proportion): ZTestResult {
  const rateA = a.trials === 0 ? 0 : a.successes / a.trials;
  const rateB = b.trials === 0 ? 0 : b.successes / b.trials;
  const pooled = a.trials + b.trials === 0 ? 0 : (a.successes + b.successes) / (a.trials + b.trials);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / Math.max(a.trials, 1) + 1 / Math.max(b.trials, 1)));
  const z = se === 0 ? 0 : (rateB - rateA) / se;
  const pValue = 2 * (1 - normalCdf(Math.abs(z)));
  const verdict =
    a.trials < MIN_TRIALS || b.trials < MIN_TRIALS ? "too early to tell" : pValue >= ALPHA ? "no difference" : z > 0 ? "B wins" : "A wins";
  return { rateA, rateB, z, pValue, verdict };
}

/** Φ(x) via the Abramowitz–Stegun 7.1.26 erf approximation (absolute error < 1.5e-7). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(x) / Math.SQRT2));
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
