import fs from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startApi, type Answer, type HeraldApi } from "../src/herald-api.ts";
import { Scenario } from "../src/scenario.ts";
import { sesAtRate } from "../src/ses-at-rate.ts";
import { latency } from "../src/simulator/faults.ts";
import { CHANNELS_PER_EVENT, seedWorkload } from "../src/workload.ts";

// Long: issue 9's 10,000 events posted within one second; small (`pnpm test`): 2,000.
const BURST = process.env.HERALD_CHAOS_LONG ? 10_000 : 2_000;
/** Generous: an API process at rest is about 150 MiB; a queue that grew with the burst would pass it. */
const RSS_BOUND_MIB = 500;

describe(`a burst of ${BURST.toLocaleString("en")} events posted within one second`, () => {
  let scenario: Scenario;
  let api: HeraldApi;
  beforeAll(async () => {
    scenario = await Scenario.open("load-burst", inject("templateUrl"));
  });
  afterAll(async () => {
    await api?.stop();
    await scenario?.close();
  });

  it("answers each 202 or 429 with Retry-After, keeps the API process's memory bounded, sends each accepted event exactly once and keeps no trace of a refused one", async () => {
    const s = scenario;
    await seedWorkload(s.sql, BURST);
    const env = await sesAtRate(s, 1_000);
    for (const provider of ["ses", "twilio", "fcm"] as const) s.sim.plan(provider, latency(50, 200));
    api = await startApi(s, { env });
    await s.ready(s.startWorker(env));

    const burst = await connectBurst(api, Array.from({ length: BURST }, (_, i) => ({ eventId: `burst-${i + 1}`, type: "news", userId: `u-${i + 1}` })));
    const before = memoryOf(api.process.pid);
    const started = performance.now();
    const posts = burst.fire();
    const postedWithinMs = performance.now() - started;
    const answers = await Promise.all(posts);
    const answeredWithinMs = performance.now() - started;
    const peakRssMib = memoryOf(api.process.pid).peakMib;
    const codes = Object.entries(Object.groupBy(answers, (a) => (a.status === 429 ? `429 ${JSON.parse(a.body).error.code}` : String(a.status))));
    console.info(
      `burst of ${BURST}: posted within ${Math.round(postedWithinMs)} ms, answered within ${Math.round(answeredWithinMs)} ms ` +
        `(${codes.map(([code, list]) => `${list!.length} × ${code}`).join(", ")}); API RSS ${before.rssMib} MiB before, peak ${peakRssMib} MiB`,
    );

    expect(postedWithinMs).toBeLessThan(1_000);
    expect([...new Set(answers.map((a) => a.status))].sort()).toEqual([202, 429]);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.retryAfter).toMatch(/^\d+$/);
      expect(JSON.parse(refused.body).error.code).toBe("overloaded");
    }
    expect(peakRssMib).toBeLessThan(RSS_BOUND_MIB);
    const refusedIds = answers.flatMap((a, i) => (a.status === 429 ? [`burst-${i + 1}`] : []));
    const { rows } = await s.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM herald.events WHERE event_id = ANY($1::text[])`, [refusedIds]);
    expect(rows[0]!.n).toBe(0);

    const expected = (BURST - refusedIds.length) * CHANNELS_PER_EVENT;
    await s.drain(expected, 240_000);
    const summary = await s.finish(expected);
    expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, duplicate_budget: 0, status_regressions: 0, locked_jobs: 0 });
    expect(summary.statuses).toEqual({ sent: expected });
  });
});

/**
 * One connection per event, opened first, then every request written at once: each request
 * is then one socket write, about 20 µs of the client's CPU, where fetch spends a millisecond
 * (10,000 of those take the client seconds, not the burst's one second). `Connection: close`,
 * so an answer ends with its connection.
 */
async function connectBurst(api: HeraldApi, events: ReadonlyArray<{ eventId: string; type: string; userId: string }>): Promise<{ fire(): Array<Promise<Answer>> }> {
  const { hostname, port } = new URL(api.url);
  const sockets = await Promise.all(
    events.map(
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(Number(port), hostname, () => resolve(socket));
          socket.once("error", reject);
        }),
    ),
  );
  const requests = events.map((event) => {
    const body = JSON.stringify(event);
    return (
      `POST /api/v1/events HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${api.key}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
    );
  });
  return {
    fire: () =>
      sockets.map((socket, i) => {
        const answer = new Promise<Answer>((resolve, reject) => {
          const chunks: Buffer[] = [];
          socket.on("data", (c: Buffer) => chunks.push(c));
          socket.once("error", reject);
          socket.once("close", () => resolve(parseAnswer(Buffer.concat(chunks).toString("utf8"))));
        });
        socket.write(requests[i]!);
        return answer;
      }),
  };
}

/** An HTTP/1.1 answer read off the wire (Express sends JSON with a Content-Length, never chunked). */
function parseAnswer(raw: string): Answer {
  const [head = "", ...rest] = raw.split("\r\n\r\n");
  const [statusLine = "", ...headers] = head.split("\r\n");
  const header = (name: string) => headers.find((h) => h.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim() ?? null;
  return { status: Number(statusLine.split(" ")[1] ?? 0), retryAfter: header("retry-after"), body: rest.join("\r\n\r\n") };
}

/** A process's resident set now (VmRSS) and at its peak so far (VmHWM, kept by the kernel: no sample can miss it), in MiB. */
function memoryOf(pid: number): { rssMib: number; peakMib: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const mib = (field: string) => Math.round(Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN) / 1024);
  return { rssMib: mib("VmRSS"), peakMib: mib("VmHWM") };
}
