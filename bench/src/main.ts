import { parseArgs, UsageError, USAGE } from "./cli-args.ts";
import { settleDrops, startBenchCluster } from "./bench-database.ts";
import { readBenchEnv } from "./bench-env.ts";
import { killLiveChildren } from "./herald-process.ts";
import { checkoutLine, describeCheckout, describeMachine, machineLine } from "./machine.ts";
import { SCENARIOS } from "./registry.ts";
import { formatTable, formatTimes, timeLine, writeReport, type BenchReport, type ScenarioReport } from "./report.ts";
import { timed } from "./scenario.ts";

const SEED = 20261130;

/** `pnpm bench`: every selected scenario against its baseline, a table, and a results file. */
async function main(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const args = parseArgs(argv, SCENARIOS.map((s) => s.name));
  const env = readBenchEnv();
  const log = (message: string) => process.stdout.write(`${message}\n`);
  const startedAt = new Date();
  const selected = SCENARIOS.filter((s) => !args.only || args.only.includes(s.name));

  const cluster = await startBenchCluster(env, (m) => log(`postgres: ${m}`));
  const reports: ScenarioReport[] = [];
  let report: BenchReport;
  try {
    const machine = describeMachine(cluster);
    const checkout = describeCheckout();
    const reportSoFar = (): BenchReport => ({
      date: startedAt.toISOString().slice(0, 10),
      scale: args.scale,
      tiny: env.tiny,
      repeats: args.repeats,
      seed: SEED,
      startedAt: startedAt.toISOString(),
      durationSeconds: (Date.now() - startedAt.getTime()) / 1000,
      machine,
      checkout,
      scenarios: [...reports],
    });
    log(`Herald bench: scale ${args.scale}${env.tiny ? " (HERALD_BENCH_TINY=1)" : ""}, ${args.repeats} rounds, seed ${SEED}`);
    log(`Machine: ${machineLine(machine)}`);
    log(`Engine: ${checkoutLine(checkout)}`);
    for (const scenario of selected) {
      if (!scenario.run) {
        log(`\n${scenario.name}: not built`);
        reports.push({ name: scenario.name, summary: scenario.summary, status: "not built" });
        continue;
      }
      const run = scenario.run;
      log(`\n${scenario.name}: ${scenario.summary}`);
      const started = performance.now();
      try {
        const { value: outcome, time } = await timed(() => run({
          scale: args.scale,
          tiny: env.tiny,
          repeats: args.repeats,
          cluster,
          env,
          keepDatabases: args.keepDatabases,
          seed: SEED,
          peakRssSoFar: reports.flatMap((r) => (r.status === "ran" ? [{ name: r.name, peakRssMb: r.peakRssMb }] : [])),
          log,
        }));
        for (const note of outcome.notes) log(`  · ${note}`);
        log(`  ${scenario.name} took ${timeLine(time)}`);
        reports.push({ name: scenario.name, summary: scenario.summary, status: "ran", ...outcome, time });
      } catch (error) {
        killLiveChildren();
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        log(`  ${scenario.name} failed after ${((performance.now() - started) / 1000).toFixed(1)} s: ${message}`);
        reports.push({ name: scenario.name, summary: scenario.summary, status: "failed", error: message });
      }
      // Written after every scenario: a large run is two hours, and one that dies late keeps
      // what it measured.
      writeReport(reportSoFar(), env.resultsDir);
    }
    report = reportSoFar();
  } finally {
    await settleDrops();
    await cluster.release();
  }
  log(`\nMachine: ${machineLine(report.machine)}`);
  log(`Engine: ${checkoutLine(report.checkout)}\n`);
  log(formatTable(report));
  log(`\n${formatTimes(report)}`);
  const files = writeReport(report, env.resultsDir);
  log(`\nWrote ${files.json} and ${files.markdown} (${Math.round(report.durationSeconds)} s in all)`);
  return reports.some((r) => r.status === "failed") ? 1 : 0;
}

// A scenario's stray rejection must not leave its Herald processes running on after the bench.
for (const event of ["uncaughtException", "unhandledRejection"] as const) {
  process.once(event, (error: unknown) => {
    killLiveChildren();
    process.stderr.write(`bench: ${event}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    killLiveChildren();
    process.exit(130);
  });
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  killLiveChildren();
  process.stderr.write(`bench: ${error instanceof UsageError ? `${error.message}\n\n${USAGE}` : ((error as Error).stack ?? String(error))}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
