import fs from "node:fs";
import path from "node:path";
import { checkoutLine, machineLine, type Checkout, type Machine } from "./machine.ts";
import type { Metric, Scale, ScenarioOutcome, TimeSpent } from "./scenario.ts";
import type { Summary } from "./stats.ts";

export type ScenarioReport =
  | ({ name: string; summary: string; status: "ran"; time: TimeSpent } & ScenarioOutcome)
  | { name: string; summary: string; status: "not built" }
  | { name: string; summary: string; status: "failed"; error: string };

/** One run of `pnpm bench`, as written to bench/results/<date>-<scale>.json. */
export interface BenchReport {
  date: string;
  scale: Scale;
  tiny: boolean;
  repeats: number;
  seed: number;
  startedAt: string;
  durationSeconds: number;
  machine: Machine;
  checkout: Checkout;
  scenarios: ScenarioReport[];
}

const HEADER = ["scenario", "metric", "Herald median (min–max)", "baseline median (min–max)", "ratio", "target", "verdict"];

/** The results table, one row per metric; scenarios not built or failed get one row saying so. */
export function tableRows(report: BenchReport): string[][] {
  const rows: string[][] = [];
  for (const s of report.scenarios) {
    if (s.status === "not built") rows.push([s.name, "—", "not built", "", "", "", ""]);
    else if (s.status === "failed") rows.push([s.name, "—", `failed: ${s.error.split("\n")[0]!.slice(0, 120)}`, "", "", "", ""]);
    else {
      for (const m of s.metrics) {
        rows.push([
          s.name,
          m.metric,
          m.herald ? cell(m.herald, m.metric) : "—",
          m.baseline ? `${cell(m.baseline.summary, m.metric)} ${m.baseline.name}` : "—",
          ratioText(m),
          m.verdict?.target ?? "—",
          m.verdict ? (m.verdict.met ? "met" : "missed") : "—",
        ]);
      }
    }
  }
  return rows;
}

export function formatTable(report: BenchReport): string {
  const rows = [HEADER, ...tableRows(report)];
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? "")].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(rows[0]!), widths.map((w) => "─".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

/** "41.2 s (setup and teardown 12.0 s, warm-up 3.1 s, rounds 26.1 s)" */
export function timeLine(t: TimeSpent): string {
  const setup = t.wallSeconds - t.warmupSeconds - t.roundsSeconds;
  return `${t.wallSeconds.toFixed(1)} s (setup and teardown ${setup.toFixed(1)} s, warm-up ${t.warmupSeconds.toFixed(1)} s, rounds ${t.roundsSeconds.toFixed(1)} s)`;
}

/** Where the invocation's time went, one line per scenario that ran. */
export function formatTimes(report: BenchReport): string {
  const ran = report.scenarios.filter((s) => s.status === "ran");
  const width = Math.max(...ran.map((s) => s.name.length), 0);
  return [`Wall time, ${Math.round(report.durationSeconds)} s in all:`, ...ran.map((s) => `  ${s.name.padEnd(width)}  ${timeLine(s.time)}`)].join("\n");
}

export function formatMarkdown(report: BenchReport): string {
  const escape = (c: string) => c.replaceAll("|", "\\|");
  const lines = [
    `# Herald bench — ${report.date}, scale ${report.scale}${report.tiny ? " (tiny)" : ""}`,
    "",
    `Machine: ${machineLine(report.machine)}.`,
    "",
    `Engine: ${checkoutLine(report.checkout)}.`,
    "",
    `${report.repeats} measured rounds per contender after a warm-up, interleaved (Herald, baseline, Herald, …); seed ${report.seed}; ` +
      `${Math.round(report.durationSeconds)} s in all.`,
    "",
    `| ${HEADER.join(" | ")} |`,
    `| ${HEADER.map(() => "---").join(" | ")} |`,
    ...tableRows(report).map((r) => `| ${r.map(escape).join(" | ")} |`),
  ];
  lines.push("", "```", formatTimes(report), "```");
  for (const s of report.scenarios) {
    if (s.status !== "ran") continue;
    lines.push("", `## ${s.name}`, "", s.summary, "", ...s.notes.map((n) => `- ${n}`));
  }
  return `${lines.join("\n")}\n`;
}

/** Writes <date>-<scale>[-tiny].json and .md through a temporary file each; returns the JSON path. */
export function writeReport(report: BenchReport, dir: string): { json: string; markdown: string } {
  fs.mkdirSync(dir, { recursive: true });
  const base = path.join(dir, `${report.date}-${report.scale}${report.tiny ? "-tiny" : ""}`);
  const write = (file: string, text: string) => {
    fs.writeFileSync(`${file}.tmp`, text);
    fs.renameSync(`${file}.tmp`, file);
  };
  const withRatios = {
    ...report,
    scenarios: report.scenarios.map((s) => (s.status === "ran" ? { ...s, metrics: s.metrics.map((m) => ({ ...m, ratio: ratioOf(m) })) } : s)),
  };
  write(`${base}.json`, `${JSON.stringify(withRatios, null, 2)}\n`);
  write(`${base}.md`, formatMarkdown(report));
  return { json: `${base}.json`, markdown: `${base}.md` };
}

/** Herald's median over the baseline's, or null when the row has no pair. */
export function ratioOf(m: Metric): number | null {
  if (!m.herald || !m.baseline || m.baseline.summary.median === 0) return null;
  return m.herald.median / m.baseline.summary.median;
}

function ratioText(m: Metric): string {
  const ratio = ratioOf(m);
  if (ratio === null) return "—";
  return `${ratio >= 10 ? ratio.toFixed(0) : ratio >= 1 ? ratio.toFixed(1) : ratio.toFixed(2)}×`;
}

function cell(s: Summary, metric: string): string {
  const f = (v: number) => formatValue(v, metric);
  return s.samples.length === 1 ? f(s.median) : `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
}

function formatValue(value: number, metric: string): string {
  if (metric.includes("(ms)")) return value.toFixed(1);
  if (metric.includes("KiB")) return value.toFixed(2);
  return Math.round(value).toLocaleString("en-US");
}
