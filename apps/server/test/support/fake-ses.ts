import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake received. */
export interface FakeSesRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** What the fake answers: a status, headers and a body, or a dropped connection, or silence. */
export type FakeSesAnswer =
  | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }
  | { drop: true }
  | { hang: true };

/**
 * A local stand-in for `email.<region>.amazonaws.com`: the real SDK talks to it through its
 * endpoint override. Every request is recorded; answers come from `answer` (default: a MessageId).
 */
export class FakeSes {
  readonly requests: FakeSesRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;
  answer: (request: FakeSesRequest, index: number) => FakeSesAnswer = (_r, index) => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ MessageId: `fake-ses-${index}` }),
  });
  private server = http.createServer((req, res) => this.handle(req, res));
  private hanging: http.ServerResponse[] = [];

  async start(): Promise<string> {
    this.server.listen(0, "127.0.0.1");
    await new Promise((resolve) => this.server.once("listening", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  reset(): void {
    this.requests.length = 0;
    this.maxInFlight = 0;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const request: FakeSesRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: text ? JSON.parse(text) : null };
      const index = this.requests.push(request) - 1;
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      const answer = this.answer(request, index);
      if ("drop" in answer) {
        this.inFlight -= 1;
        req.socket.destroy();
        return;
      }
      if ("hang" in answer) {
        this.hanging.push(res);
        res.on("close", () => (this.inFlight -= 1));
        return;
      }
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
      this.inFlight -= 1;
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? "");
    });
  }
}

/** Parses an `.http` fixture (status line, headers, blank line, body) into an answer. */
export function answerFromHttpFixture(text: string): FakeSesAnswer {
  const [head = "", body = ""] = text.split(/\r?\n\r?\n/, 2);
  const [statusLine = "", ...headerLines] = head.split(/\r?\n/);
  const status = Number(statusLine.split(" ")[1]);
  const headers = Object.fromEntries(
    headerLines.map((line) => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  return { status, headers, body: body.trim() };
}

/** An SES error the way restJson1 carries it: the name in `x-amzn-ErrorType`, a JSON message. */
export function sesError(status: number, name: string, message = name, headers: Record<string, string> = {}): FakeSesAnswer {
  return {
    status,
    headers: { "content-type": "application/json", "x-amzn-errortype": name, "x-amzn-requestid": "00000000-0000-0000-0000-000000000000", ...headers },
    body: JSON.stringify({ message }),
  };
}
