import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), "herald-bench-"));
afterAll(() => fs.rmSync(resultsDir, { recursive: true, force: true }));

function runBench(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("pnpm", ["bench", ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, output }));
  });
}

interface SummaryJson {
  median: number;
  min: number;
  max: number;
  samples: number[];
}

interface MetricJson {
  metric: string;
  baseline: { name: string } | null;
  verdict: { target: string } | null;
}

// No timing thresholds: this checks the harness, not Herald's speed (that is `pnpm bench`'s job).
describe("pnpm bench --scale small --only ingest,ingest-batch,emit,dispatch,dispatch-20ms,critical-idle,critical-load,fanout,timeline,charts,memory (HERALD_BENCH_TINY=1)", () => {
  it("runs every selected scenario against its baseline and writes the results file", async () => {
    const run = await runBench(["--scale", "small", "--only", "ingest,ingest-batch,emit,dispatch,dispatch-20ms,critical-idle,critical-load,fanout,timeline,charts,memory"], {
      HERALD_BENCH_TINY: "1",
      HERALD_BENCH_RESULTS_DIR: resultsDir,
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("Machine: ");

    const file = fs.readdirSync(resultsDir).find((f) => f.endsWith("-small-tiny.json"));
    expect(file, `no results file in ${resultsDir}: ${fs.readdirSync(resultsDir).join(", ")}`).toBeDefined();
    expect(fs.existsSync(path.join(resultsDir, file!.replace(/\.json$/, ".md")))).toBe(true);
    const report = JSON.parse(fs.readFileSync(path.join(resultsDir, file!), "utf8"));

    expect(report.scale).toBe("small");
    expect(report.tiny).toBe(true);
    expect(report.machine.cores).toBeGreaterThan(0);
    expect(report.machine.postgres).toMatch(/^\d+/);
    expect(report.scenarios.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
      ["ingest", "ran"],
      ["ingest-batch", "ran"],
      ["emit", "ran"],
      ["dispatch", "ran"],
      ["dispatch-20ms", "ran"],
      ["critical-idle", "ran"],
      ["critical-load", "ran"],
      ["fanout", "ran"],
      ["timeline", "ran"],
      ["charts", "ran"],
      ["memory", "ran"],
    ]);
    for (const scenario of report.scenarios) {
      // The fan-out and emit run in the bench process itself: no server, no server RSS.
      if (!["fanout", "emit"].includes(scenario.name)) expect(scenario.peakRssMb, scenario.name).toBeGreaterThan(0);
      expect(scenario.time.wallSeconds, scenario.name).toBeGreaterThanOrEqual(scenario.time.warmupSeconds + scenario.time.roundsSeconds);
      expect(scenario.metrics.length, scenario.name).toBeGreaterThan(0);
      for (const metric of scenario.metrics) {
        const summaries: SummaryJson[] = [metric.herald, metric.baseline?.summary].filter(Boolean);
        expect(summaries.length, `${scenario.name} ${metric.metric}`).toBeGreaterThan(0);
        for (const s of summaries) {
          for (const value of [s.median, s.min, s.max, ...s.samples]) {
            expect(Number.isFinite(value) && value > 0, `${scenario.name} ${metric.metric}: ${value}`).toBe(true);
          }
        }
        if (metric.baseline && metric.herald) expect(metric.herald.samples.length).toBeGreaterThanOrEqual(3);
      }
    }

    const critical = report.scenarios.find((s: { name: string }) => s.name === "critical-idle");
    const byName = new Map<string, MetricJson>(critical.metrics.map((m: MetricJson) => [m.metric, m]));
    for (const name of ["p50 latency (ms)", "p95 latency (ms)", "max latency (ms)"]) {
      expect(byName.get(name)?.baseline?.name, name).toBe("graphile-worker add_job → start");
    }
    expect(byName.get("p95 latency (ms)")?.verdict?.target).toBe("≤ 250 ms");

    // Memory starts nothing: its one row is the highest peak any scenario's server reached.
    const memory = report.scenarios.find((s: { name: string }) => s.name === "memory");
    const peaks = report.scenarios.filter((s: { name: string }) => s.name !== "memory").map((s: { peakRssMb: number }) => s.peakRssMb);
    expect(memory.metrics).toHaveLength(1);
    expect(memory.metrics[0].herald.median).toBe(Math.max(...peaks));
    expect(memory.metrics[0].verdict.target).toBe("≤ 300 MB");
    expect(run.output).toMatch(/Wall time, \d+ s in all:\n {2}ingest +\d/);
  });
});
