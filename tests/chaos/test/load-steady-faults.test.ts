import { attachEmbeddedServer, type EmbeddedPostgres } from "@herald/db/testing";
import { afterEach, describe, expect, inject, it } from "vitest";
import type { HeraldWorker } from "../src/herald-worker.ts";
import { DRAIN_MS, LONG, PER_SECOND, postSteadily, timeoutFor, useSteadyLoad } from "../src/steady-load.ts";
import { CHANNELS_PER_EVENT } from "../src/workload.ts";

const FAULTED_SECONDS = LONG ? 600 : 20;
/** A worker is killed this often (once in the small run). */
const KILL_EVERY_MS = LONG ? 60_000 : 10_000;
const embeddedDataDir = inject("embeddedDataDir");

describe(`steady load with faults: ${PER_SECOND} events/s × 3 channels, provider latency 50–200 ms`, () => {
  let server: EmbeddedPostgres | undefined;
  // Registered first, so it runs last (after hooks run in reverse): after the API and the scenario.
  afterEach(async () => {
    await server?.release();
    server = undefined;
  });
  const open = useSteadyLoad();

  it(`with a worker SIGKILLed every ${KILL_EVERY_MS / 1000} s${embeddedDataDir ? " and one Postgres restart" : ""}: nothing lost, duplicates within what the faults exposed`, async () => {
    const { s, api, env } = await open("load-steady-faults", FAULTED_SECONDS);
    if (embeddedDataDir) server = await attachEmbeddedServer(embeddedDataDir);
    const workers: HeraldWorker[] = [s.startWorker(env), s.startWorker(env)];
    await Promise.all(workers.map((w) => s.ready(w)));

    const load = postSteadily(api, { perSecond: PER_SECOND, seconds: FAULTED_SECONDS });
    // Awaited once the faults are over; a failure before then is reported there, not as unhandled.
    load.catch(() => undefined);
    const started = Date.now();
    // Half-way between two kills, past the middle of the run.
    const restartAt = started + (FAULTED_SECONDS * 1000) / 2 + KILL_EVERY_MS / 2;
    let restarted = !server;
    const restart = async () => {
      await new Promise((r) => setTimeout(r, Math.max(0, restartAt - Date.now())));
      await s.databaseOutage(server!, 0);
      restarted = true;
    };
    let kills = 0;
    for (let at = started + KILL_EVERY_MS; at < started + FAULTED_SECONDS * 1000; at += KILL_EVERY_MS) {
      if (!restarted && restartAt < at) await restart();
      await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
      // One of the two, the older first; a new one takes its place, as a supervisor would start it.
      const victim = workers.shift()!;
      await s.kill9(victim);
      kills++;
      const next = s.startWorker(env);
      workers.push(next);
      await s.ready(next);
    }
    if (!restarted) await restart();
    const answers = await load;
    const expected = answers.length * CHANNELS_PER_EVENT;
    await s.drain(expected, DRAIN_MS);
    const summary = await s.finish(expected);

    expect(kills).toBe(Math.ceil((FAULTED_SECONDS * 1000) / KILL_EVERY_MS) - 1);
    // Refused only with Retry-After (503 while the database was away, 429 if the API was full),
    // then accepted; 200 (a replay) only for an event whose refusal came after its commit.
    for (const tries of answers) {
      // toEqual, not toBe: toBe compares an asymmetric matcher by identity, so any event refused
      // once (a 503 during the restart) failed the run whatever it was answered in the end.
      expect(tries.at(-1)!.status).toEqual(tries.length === 1 ? 202 : expect.toSatisfy((s: number) => s === 202 || s === 200));
      for (const refused of tries.slice(0, -1)) expect(refused).toMatchObject({ status: expect.toSatisfy((s: number) => s === 503 || s === 429), retryAfter: expect.stringMatching(/^\d+$/) });
    }
    expect(summary).toMatchObject({ notifications: expected, lost: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected });
    expect(summary.duplicates).toBeLessThanOrEqual(summary.duplicate_budget);
  }, timeoutFor(FAULTED_SECONDS));
});
