import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase, type Database } from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import { startWorker, type HeraldWorker } from "./herald-worker.ts";
import type { EmbeddedPostgres } from "@herald/db/testing";
import { acceptedButUnrecorded, exposedByOutages, installInstrumentation, storeLedger, unrecordedAcceptances } from "./instrumentation.ts";
import { checkInvariants, type ScenarioSummary } from "./invariants.ts";
import { ProviderSimulator } from "./simulator/simulator.ts";

export const RESULTS_DIR = process.env.HERALD_CHAOS_RESULTS ?? fileURLToPath(new URL("../results", import.meta.url));

/**
 * One scenario: its own database (cloned from the migrated template), the simulator, the
 * worker processes it starts, and the duplicate budget the faults it injects earn.
 */
export class Scenario {
  readonly workers: HeraldWorker[] = [];
  private budget = 0;
  private readonly outages: Array<{ from: Date; to: Date; unrecorded: string[] }> = [];
  private maxLockAgeS = 0;
  private sampler: NodeJS.Timeout | null = null;

  readonly name: string;
  private readonly testDatabase: TestDatabase;
  readonly database: Database;
  readonly sim: ProviderSimulator;

  private constructor(name: string, testDatabase: TestDatabase, database: Database, sim: ProviderSimulator) {
    this.name = name;
    this.testDatabase = testDatabase;
    this.database = database;
    this.sim = sim;
  }

  static async open(name: string, templateUrl: string): Promise<Scenario> {
    const testDatabase = await createTestDatabase(templateUrl);
    const database = openDatabase(testDatabase.url);
    await installInstrumentation(database.pool);
    const sim = new ProviderSimulator();
    await sim.start();
    const scenario = new Scenario(name, testDatabase, database, sim);
    scenario.sampleLocks();
    return scenario;
  }

  get sql() {
    return this.database.pool;
  }

  /** A Herald process (a worker unless `extra` sets HERALD_ROLE) with every provider on the simulator. */
  startWorker(extra: Record<string, string> = {}): HeraldWorker {
    const worker = startWorker(this.testDatabase.url, this.sim.url, extra);
    this.workers.push(worker);
    return worker;
  }

  /**
   * kill -9, then count what the provider had accepted that Herald had not recorded: the sends
   * this kill may repeat. The process is gone when the count is read, so nothing more commits.
   */
  async kill9(worker: HeraldWorker): Promise<number> {
    await worker.kill9();
    return this.exposed();
  }

  /**
   * SIGTERM, then a second SIGTERM `afterMs` later: the forced exit an operator gets when a
   * graceful stop takes too long. Counted like a kill: what it left accepted and unrecorded.
   */
  async terminateTwice(worker: HeraldWorker, afterMs: number): Promise<{ exit: number | string | null; secondSignalToExitMs: number; exposed: number }> {
    worker.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, afterMs));
    const second = Date.now();
    worker.child.kill("SIGTERM");
    const exit = await worker.exit;
    return { exit, secondSignalToExitMs: Date.now() - second, exposed: await this.exposed() };
  }

  /**
   * The database goes away for `downMs`: the embedded server stopped with pg_ctl stop -m fast
   * (every connection cut), then started on the same port. A send accepted and unrecorded when
   * it went down, or accepted while it was down, may be sent again: finish() budgets for them.
   */
  async databaseOutage(server: EmbeddedPostgres, downMs: number): Promise<{ downForMs: number }> {
    const from = new Date();
    const unrecorded = await unrecordedAcceptances(this.sql, this.sim.ledger);
    await server.stopServer();
    await new Promise((r) => setTimeout(r, downMs));
    await server.startServer();
    const to = new Date();
    this.outages.push({ from, to, unrecorded });
    return { downForMs: to.getTime() - from.getTime() };
  }

  private async exposed(): Promise<number> {
    const exposed = await acceptedButUnrecorded(this.sql, this.sim.ledger);
    this.budget += exposed;
    return exposed;
  }

  /** Waits until the worker has started its runners (its first heartbeat is written after them). */
  async ready(worker: HeraldWorker, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await this.sql.query(`SELECT 1 FROM herald.worker_heartbeats WHERE pid = $1`, [worker.pid]);
      if (rows.length > 0) return;
      if (worker.child.exitCode !== null || Date.now() > deadline) throw new Error(`${this.name}: worker ${worker.pid} did not start\n${worker.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Waits until every expected notification exists and is settled (status and dispatch state). */
  async drain(expected: number, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await this.sql.query<{ total: number; unsettled: number }>(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'pending' OR dispatch_state <> 'done')::int AS unsettled FROM herald.notifications`,
      );
      const { total, unsettled } = rows[0]!;
      if (total >= expected && unsettled === 0) return;
      if (Date.now() > deadline) {
        const logs = this.workers.map((w) => w.output().slice(-6000)).join("\n---\n");
        throw new Error(
          `${this.name}: ${unsettled} of ${total} notifications (expected ${expected}) still unsettled after ${timeoutMs} ms\n` +
            `${JSON.stringify(await this.unsettledState(), null, 1)}\n${logs}`,
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Where unsettled rows are stuck, the jobs that should carry them, and the connections: what a failed drain reports. */
  private async unsettledState(): Promise<unknown> {
    const rows = await this.sql.query(
      `SELECT channel, status, dispatch_state, in_flight_job IS NOT NULL AS in_flight_job, job_queued_at IS NOT NULL AS job_queued, count(*)::int AS n
         FROM herald.notifications WHERE status = 'pending' OR dispatch_state <> 'done' GROUP BY 1, 2, 3, 4, 5`,
    );
    const jobs = await this.sql.query(
      `SELECT id, task_identifier, attempts, max_attempts, run_at, locked_by, left(last_error, 200) AS last_error FROM graphile_worker.jobs ORDER BY id`,
    );
    // What each worker connection is doing, and since when: a batch stuck on a lock or a query
    // shows here (postgres-outage's open defect, docs/reliability.md).
    const connections = await this.sql.query(
      `SELECT application_name, state, wait_event_type, wait_event, round(extract(epoch FROM now() - state_change))::int AS for_s,
              left(query, 160) AS query
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY application_name, state_change`,
    );
    return { rows: rows.rows, jobs: jobs.rows, connections: connections.rows };
  }

  /** Stops every live worker gracefully and returns their exit codes. */
  async stopWorkers(): Promise<Array<number | string | null>> {
    const live = this.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
    return Promise.all(live.map((w) => w.terminate()));
  }

  /**
   * Stops the workers, copies the ledger in, checks the invariants and writes the JSON summary,
   * with what the scenario measured beyond the invariants (`measured`) added.
   */
  async finish(expected: number, measured: Partial<ScenarioSummary> = {}): Promise<ScenarioSummary> {
    const exits = await this.stopWorkers();
    if (exits.some((code) => code !== 0)) throw new Error(`${this.name}: a worker did not stop cleanly (${exits.join(", ")})`);
    this.stopSampling();
    await storeLedger(this.sql, this.sim.ledger);
    const summary = await checkInvariants(this.sql, {
      name: this.name,
      expected,
      duplicateBudget: this.budget + this.sim.acceptedUnanswered() + (await exposedByOutages(this.sql, this.outages)),
      maxLockAgeS: this.maxLockAgeS,
    });
    Object.assign(summary, measured);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(RESULTS_DIR, `${this.name}.json`), `${JSON.stringify(summary, null, 2)}\n`);
    return summary;
  }

  async close(): Promise<void> {
    this.stopSampling();
    for (const w of this.workers) w.child.kill("SIGKILL");
    await Promise.all(this.workers.map((w) => w.exit));
    await this.sim.stop();
    await this.database.close();
    await this.testDatabase.drop();
  }

  private sampleLocks(): void {
    const sample = async () => {
      const { rows } = await this.sql.query<{ age: number | null }>(
        `SELECT extract(epoch FROM now() - min(locked_at))::float8 AS age FROM graphile_worker._private_jobs WHERE locked_at IS NOT NULL`,
      );
      this.maxLockAgeS = Math.max(this.maxLockAgeS, rows[0]?.age ?? 0);
    };
    this.sampler = setInterval(() => void sample().catch(() => undefined), 500);
  }

  private stopSampling(): void {
    if (this.sampler) clearInterval(this.sampler);
    this.sampler = null;
  }
}
