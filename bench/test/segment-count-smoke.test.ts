import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), "herald-bench-segments-"));
afterAll(() => fs.rmSync(resultsDir, { recursive: true, force: true }));

interface SummaryJson {
  median: number;
  min: number;
  max: number;
  samples: number[];
}

interface MetricJson {
  metric: string;
  herald: SummaryJson | null;
  baseline: { name: string; summary: SummaryJson } | null;
  verdict: { target: string } | null;
}

// No timing thresholds: this checks that the scenario runs and reports, not how fast segments count.
describe("pnpm bench --only segment-count (HERALD_BENCH_TINY=1)", () => {
  it("counts every preset and the dry run against count(*) of the users, and ingest with and without the trigger", async () => {
    const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn("pnpm", ["bench", "--only", "segment-count"], {
        cwd: REPO_ROOT,
        env: { ...process.env, HERALD_BENCH_TINY: "1", HERALD_BENCH_RESULTS_DIR: resultsDir },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
      child.once("error", reject);
      child.once("exit", (code) => resolve({ code, output }));
    });
    expect(run.code, run.output).toBe(0);
    const file = fs.readdirSync(resultsDir).find((f) => f.endsWith("-small-tiny.json"));
    expect(file, run.output).toBeDefined();
    const report = JSON.parse(fs.readFileSync(path.join(resultsDir, file!), "utf8"));
    const scenario = report.scenarios.find((s: { name: string }) => s.name === "segment-count");
    expect(scenario.status, run.output).toBe("ran");
    const metrics: MetricJson[] = scenario.metrics;
    expect(metrics.map((m) => m.metric)).toEqual([
      "count all_with_device (ms)",
      "count inactive_7d (ms)",
      "count never_sessioned (ms)",
      "count test_due (ms)",
      "dry run by reason (ms)",
      "activities/s, single-row INSERTs from 4 clients",
      "activities/s, 500-row INSERTs",
    ]);
    for (const m of metrics.slice(0, 5)) {
      expect(m.baseline?.name, m.metric).toBe("SELECT count(*) FROM herald.users");
      expect(m.verdict?.target, m.metric).toBe(m.metric.startsWith("dry run") ? "≤ 3 s" : "≤ 1 s");
    }
    for (const m of metrics) {
      expect(m.herald!.samples.length, m.metric).toBeGreaterThanOrEqual(3);
      for (const value of [...m.herald!.samples, ...m.baseline!.summary.samples]) expect(Number.isFinite(value) && value > 0, `${m.metric}: ${value}`).toBe(true);
    }
    // Every preset selects someone and the setup says what it made.
    expect(scenario.notes.join("\n")).toMatch(/2,000 users, [\d,]+ activities/);
    expect(scenario.notes.join("\n")).not.toMatch(/ 0[,;]/);
  });
});
