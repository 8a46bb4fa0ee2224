import { afterEach, inject } from "vitest";
import { startApi, type Answer, type HeraldApi } from "./herald-api.ts";
import { Scenario } from "./scenario.ts";
import { sesAtRate } from "./ses-at-rate.ts";
import { latency } from "./simulator/faults.ts";
import { seedWorkload } from "./workload.ts";

// Long: issue 9's 50 events/s for 10 minutes. Small (`pnpm test`): 10 events/s for 10 s, and 20 s
// with the faults, safety asserted only; the latency threshold belongs to the long run.
export const LONG = Boolean(process.env.HERALD_CHAOS_LONG);
export const PER_SECOND = LONG ? 50 : 10;
/** Above the 50 emails a second (SES's default 14/s would be the bottleneck, not Herald). */
const SES_RATE = 200;
export const DRAIN_MS = 120_000;
/** The load, the drain and the start-up around them. */
export const timeoutFor = (seconds: number) => seconds * 1000 + DRAIN_MS + 120_000;

/**
 * The steady-load scenarios' setup, closed after each test: a scenario with enough users for
 * `seconds` of load, SES allowed above the load's rate, every provider answering in 50–200 ms,
 * and the API the load is posted to.
 */
export function useSteadyLoad() {
  let scenario: Scenario | undefined;
  let api: HeraldApi | undefined;
  afterEach(async () => {
    await api?.stop();
    await scenario?.close();
  });
  return async (name: string, seconds: number) => {
    scenario = await Scenario.open(name, inject("templateUrl"));
    const s = scenario;
    await seedWorkload(s.sql, PER_SECOND * seconds);
    const env = await sesAtRate(s, SES_RATE);
    for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, latency(50, 200));
    api = await startApi(s, { env });
    return { s, api, env };
  };
}


/**
 * One `news` event per user from `firstUser` on, `perSecond` a second for `seconds`, through
 * the API process, open loop: a slow answer never delays the next event. An event refused with
 * Retry-After (a 503 while the database is away, a 429) is posted again after it, as a client
 * should; anything else ends the run. Returns each event's answers, in the order received.
 */
export async function postSteadily(
  api: HeraldApi,
  load: { perSecond: number; seconds: number; firstUser?: number; prefix?: string },
): Promise<Answer[][]> {
  const total = load.perSecond * load.seconds;
  const firstUser = load.firstUser ?? 1;
  const started = performance.now();
  const posts: Array<Promise<Answer[]>> = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / load.perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const n = firstUser + i;
    posts.push(postUntilAccepted(api, { eventId: `${load.prefix ?? "steady"}-${n}`, type: "news", userId: `u-${n}` }));
  }
  return Promise.all(posts);
}

async function postUntilAccepted(api: HeraldApi, event: { eventId: string; type: string; userId: string }): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (;;) {
    const answer = await api.postEvent(event).catch((error: unknown) => {
      throw new Error(`event ${event.eventId}: ${String(error)}; the API process${api.process.child.exitCode === null ? "" : ` exited (${api.process.child.exitCode})`} said:\n${api.process.output().slice(-3000)}`);
    });
    answers.push(answer);
    if (answer.status < 300) return answers;
    if (!answer.retryAfter || answers.length >= 20) throw new Error(`event ${event.eventId}: ${answer.status} ${answer.body}`);
    // At most 2 s: the outages here are short, and the event's latency counts from its creation.
    await new Promise((r) => setTimeout(r, Math.min(2, Number(answer.retryAfter)) * 1000));
  }
}
