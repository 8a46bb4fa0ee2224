import type { Scenario, ScenarioContext, ScenarioOutcome } from "../scenario.ts";
import { summarize } from "../stats.ts";

const TARGET_MB = 300;
const MIB = 1024 * 1024;

export const memoryScenario: Scenario = {
  name: "memory",
  summary: "peak resident memory of the Herald server process over every scenario run before it in this invocation",
  run: runMemory,
};

/**
 * Starts nothing: every scenario samples its server's VmHWM, and this row holds the highest of
 * them to the target. A scenario that runs in the bench process (fan-out, segment count) has no
 * server and is left out.
 */
async function runMemory(ctx: ScenarioContext): Promise<ScenarioOutcome> {
  const measured = ctx.peakRssSoFar.filter((s) => s.peakRssMb > 0);
  if (measured.length === 0) {
    throw new Error("no scenario before it ran a Herald server: run memory with at least one that does (ingest, dispatch, critical-idle, …)");
  }
  const peak = measured.reduce((a, b) => (b.peakRssMb > a.peakRssMb ? b : a));
  const peakMb = (peak.peakRssMb * MIB) / 1e6;
  return {
    notes: [
      `Each scenario samples its server's VmHWM (/proc/<pid>/status) every 200 ms and at its end; the highest was ${peak.name}'s.`,
      `Per scenario (MiB): ${measured.map((s) => `${s.name} ${s.peakRssMb.toFixed(0)}`).join(", ")}.`,
      `Target ${TARGET_MB} MB = ${((TARGET_MB * 1e6) / MIB).toFixed(0)} MiB.`,
    ],
    metrics: [
      {
        metric: "peak RSS over all scenarios (MiB)",
        herald: summarize([peak.peakRssMb]),
        baseline: null,
        verdict: { target: `≤ ${TARGET_MB} MB`, met: peakMb <= TARGET_MB },
      },
    ],
    peakRssMb: peak.peakRssMb,
  };
}
