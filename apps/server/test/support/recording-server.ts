import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const FIXTURES = path.join(import.meta.dirname, "../fixtures/providers");

/** A file of test/fixtures/providers (copied from the shared, sourced provider fixtures). */
export function fixture(name: string): string {
  return fs.readFileSync(path.join(FIXTURES, name), "utf8");
}

/** One request the fake received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  httpVersion: string;
}

/** What the fake answers; `destroy` drops the connection (a reset), `hang` never answers. */
export type FakeAnswer =
  | { status: number; headers?: Record<string, string>; body?: string }
  | { destroy: true }
  | { hang: true };

/**
 * A local HTTP/1.1 server standing in for a provider's API: it records every request and answers
 * what the test scripts, so the real SDK runs its real code path over a real socket.
 */
export class RecordingServer {
  readonly requests: RecordedRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;
  answer: (request: RecordedRequest, index: number) => FakeAnswer | Promise<FakeAnswer> = () => ({ status: 200, body: "{}" });
  private server: http.Server | undefined;
  private hung: http.ServerResponse[] = [];

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        const recorded: RecordedRequest = {
          method: req.method ?? "",
          path: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          httpVersion: req.httpVersion,
        };
        const index = this.requests.push(recorded) - 1;
        this.inFlight += 1;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        const answer = await this.answer(recorded, index);
        // Counted as done once answered (a hung request stays in flight until reset).
        if (!("hang" in answer)) this.inFlight -= 1;
        if ("destroy" in answer) return req.socket.destroy();
        if ("hang" in answer) return void this.hung.push(res);
        res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
        res.end(answer.body ?? "");
      });
    });
    this.server.listen(0, "127.0.0.1");
    await new Promise((resolve) => this.server!.once("listening", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(): void {
    this.requests.length = 0;
    this.inFlight = 0;
    this.maxInFlight = 0;
    for (const res of this.hung.splice(0)) res.destroy();
  }

  async stop(): Promise<void> {
    this.reset();
    this.server?.closeAllConnections();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
  }
}

/** A JSON answer from a fixture file, with its HTTP status. */
export function jsonFixtureAnswer(status: number, name: string, headers: Record<string, string> = {}): FakeAnswer {
  return { status, headers, body: fixture(name) };
}
