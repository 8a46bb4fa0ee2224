import http from "node:http";

/** What a closed-loop HTTP load run measured. */
export interface LoadResult {
  durationMs: number;
  /** One per request, in completion order. */
  latenciesMs: Float64Array;
  /** Responses outside 2xx, with the first body seen for each status. */
  failures: Map<number, { count: number; body: string }>;
}

export interface PostLoadOptions {
  url: URL;
  headers: Record<string, string>;
  /** Pre-serialised JSON bodies, sent once each, in order. */
  bodies: readonly string[];
  /** Workers, each with its own keep-alive connection and one request in flight. */
  concurrency: number;
}

/**
 * `concurrency` async workers share one keep-alive agent capped at `concurrency` sockets; each
 * takes the next body and waits for the whole response before sending another. Latency is
 * measured from just before the request is written to the end of the response.
 */
export async function postConcurrently(options: PostLoadOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency, maxFreeSockets: options.concurrency });
  const latencies = new Float64Array(options.bodies.length);
  const failures = new Map<number, { count: number; body: string }>();
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= options.bodies.length) return;
      const started = performance.now();
      const { status, body } = await post(agent, options.url, options.headers, options.bodies[i]!);
      latencies[i] = performance.now() - started;
      if (status < 200 || status >= 300) {
        const seen = failures.get(status);
        if (seen) seen.count++;
        else failures.set(status, { count: 1, body });
      }
    }
  };
  try {
    // Open the connections before the clock starts, as a long-running client would have them.
    await Promise.all(Array.from({ length: options.concurrency }, () => get(agent, new URL("/healthz", options.url))));
    const started = performance.now();
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    return { durationMs: performance.now() - started, latenciesMs: latencies, failures };
  } finally {
    agent.destroy();
  }
}

function post(agent: http.Agent, url: URL, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: "POST", agent, headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

function get(agent: http.Agent, url: URL): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        response.resume();
        response.on("end", () => resolve());
      })
      .on("error", reject);
  });
}
