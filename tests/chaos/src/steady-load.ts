import type { Answer, HeraldApi } from "./herald-api.ts";

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
