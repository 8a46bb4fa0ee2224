import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ScenarioSummary } from "./invariants.ts";
import { RESULTS_DIR } from "./scenario.ts";

// `pnpm test:chaos [vitest filters…]`: every scenario of tests/chaos, then their summaries as one table.
// `--long`: the scenarios at their long settings (HERALD_CHAOS_LONG), such as Postgres down 60 s.
const long = process.argv.includes("--long");
const args = process.argv.slice(2).filter((a) => a !== "--long");
if (long) process.env.HERALD_CHAOS_LONG = "1";
fs.rmSync(RESULTS_DIR, { recursive: true, force: true });
const config = fileURLToPath(new URL("../vitest.chaos.config.ts", import.meta.url));
const run = spawnSync(process.execPath, [fileURLToPath(new URL("../../../node_modules/vitest/vitest.mjs", import.meta.url)), "run", "--config", config, ...args], { stdio: "inherit" });

const summaries: ScenarioSummary[] = fs.existsSync(RESULTS_DIR)
  ? fs
      .readdirSync(RESULTS_DIR)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, f), "utf8")) as ScenarioSummary)
  : [];
process.stdout.write(`\n${formatTable(summaries)}\n`);
process.exit(run.status ?? 1);

function formatTable(rows: ScenarioSummary[]): string {
  const columns = ["scenario", "expected", "lost", "duplicates", "duplicate_budget", "status_regressions", "sends_after_opt_out", "locked_jobs", "p95_ms", "max_lock_age_s", "webhook_p99_ms"] as const;
  const cells = [columns.map(String), ...rows.map((r) => columns.map((c) => String(r[c] ?? "—")))];
  const widths = columns.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  return [line(cells[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}
