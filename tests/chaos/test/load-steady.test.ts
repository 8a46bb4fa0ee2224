import { describe, expect, it } from "vitest";
import { DRAIN_MS, LONG, PER_SECOND, postSteadily, timeoutFor, useSteadyLoad } from "../src/steady-load.ts";
import { CHANNELS_PER_EVENT } from "../src/workload.ts";

const SECONDS = LONG ? 600 : 10;

// The faulted run is load-steady-faults.test.ts: it restarts Postgres, so it runs alone.
describe(`steady load: ${PER_SECOND} events/s × 3 channels, provider latency 50–200 ms`, () => {
  const open = useSteadyLoad();

  it(`loses nothing, sends nothing twice and drains within ${DRAIN_MS / 1000} s of the end${LONG ? "; p95 event → provider under 5 s" : ""}`, async () => {
    const { s, api, env } = await open("load-steady", SECONDS);
    await s.ready(s.startWorker(env));
    const answers = await postSteadily(api, { perSecond: PER_SECOND, seconds: SECONDS });
    const expected = answers.length * CHANNELS_PER_EVENT;
    await s.drain(expected, DRAIN_MS);
    const summary = await s.finish(expected);

    expect(answers.flat().map((a) => a.status)).toEqual(answers.map(() => 202));
    expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, duplicate_budget: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected });
    if (LONG) expect(summary.p95_ms).toBeLessThan(5_000);
  }, timeoutFor(SECONDS));
});
