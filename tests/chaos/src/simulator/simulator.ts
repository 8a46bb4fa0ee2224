import http from "node:http";
import type { AddressInfo } from "node:net";
import { always, isAccepting, ok, status, type Fault, type FaultPlan } from "./faults.ts";
import type { LedgerEntry } from "./ledger.ts";
import { acceptedAnswer, errorAnswer, readWireRequest, type SimulatedProvider } from "./provider-wire.ts";

/** The ledger as JSON, for a simulator running as its own process (main.ts). */
export const LEDGER_PATH = "/__ledger";

/**
 * One local HTTP server speaking SES v2 SendEmail, Twilio's Messages create, FCM v1 send and
 * Google's OAuth token endpoint, on loopback only. Herald's real SDKs reach it through their
 * endpoint overrides. Each provider answers by its fault plan; every request is written to the
 * ledger before it is answered, and `onRequest` runs in between (a test kills a worker there:
 * before the answer, after the provider accepted).
 */
export class ProviderSimulator {
  readonly ledger: LedgerEntry[] = [];
  /** Runs after the entry is in the ledger and before the answer is written; awaited. */
  onRequest: ((entry: LedgerEntry) => void | Promise<void>) | null = null;
  private plans = new Map<SimulatedProvider, FaultPlan>();
  private counts = new Map<SimulatedProvider, number>();
  private quotas = new Map<SimulatedProvider, { perSecond: number; burst: number; tokens: number; at: number }>();
  private hanging = new Set<http.ServerResponse>();
  private server = http.createServer((req, res) => this.handle(req, res));
  private origin = "";

  async start(port = 0): Promise<string> {
    this.server.keepAliveTimeout = 5_000;
    this.server.listen(port, "127.0.0.1");
    await new Promise((resolve) => this.server.once("listening", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.origin;
  }

  get url(): string {
    return this.origin;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Sets how one provider answers from now on (default: ok). */
  plan(provider: SimulatedProvider, plan: FaultPlan | Fault): void {
    this.plans.set(provider, typeof plan === "function" ? plan : always(plan));
    this.counts.set(provider, 0);
  }

  /**
   * A sending quota, as SES enforces an account's maximum send rate: a token bucket refilled at
   * `perSecond`, holding at most `burst`. A request that finds it empty is answered 429 in the
   * provider's error format whatever the plan says (the plan is not consulted for it).
   */
  limitRate(provider: SimulatedProvider, perSecond: number, burst = perSecond): void {
    this.quotas.set(provider, { perSecond, burst, tokens: burst, at: performance.now() });
  }

  /** Every provider back to ok and unlimited, hung requests released. */
  reset(): void {
    this.plans.clear();
    this.counts.clear();
    this.quotas.clear();
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
  }

  /** Accepted requests whose answer never reached Herald: each may be sent again. */
  acceptedUnanswered(): number {
    return this.ledger.filter((e) => e.accepted && (e.fault.kind === "drop" || e.fault.kind === "hang")).length;
  }

  private overQuota(provider: SimulatedProvider): boolean {
    const quota = this.quotas.get(provider);
    if (!quota) return false;
    const now = performance.now();
    quota.tokens = Math.min(quota.burst, quota.tokens + ((now - quota.at) / 1000) * quota.perSecond);
    quota.at = now;
    if (quota.tokens < 1) return true;
    quota.tokens -= 1;
    return false;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void this.answer(req, res, Buffer.concat(chunks).toString("utf8")).catch(() => res.destroy());
    });
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<void> {
    const path = req.url ?? "/";
    if (req.method === "GET" && path === LEDGER_PATH) {
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify(this.ledger));
    }
    const wire = readWireRequest(req.method ?? "", path, body);
    const base = { seq: this.ledger.length + 1, at: new Date(), ...wire };
    let fault: Fault = ok();
    if (wire.provider) {
      const index = this.counts.get(wire.provider) ?? 0;
      this.counts.set(wire.provider, index + 1);
      fault = this.overQuota(wire.provider) ? status(429) : (this.plans.get(wire.provider)?.(base, index) ?? ok());
    }
    const entry: LedgerEntry = { ...base, fault, accepted: wire.provider !== null && isAccepting(fault) };
    this.ledger.push(entry);
    await this.onRequest?.(entry);

    if (!wire.provider) {
      res.writeHead(404, { "content-type": "application/json" });
      return void res.end(JSON.stringify({ message: `the simulator does not speak ${req.method} ${path}` }));
    }
    if ("delayMs" in fault && fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    switch (fault.kind) {
      case "hang":
        this.hanging.add(res);
        res.on("close", () => this.hanging.delete(res));
        return;
      case "drop":
      case "reset":
        return void req.socket.destroy();
      case "status": {
        const answer = errorAnswer(wire.provider, fault.status, fault.headers);
        res.writeHead(answer.status, answer.headers);
        return void res.end(answer.body);
      }
      case "ok": {
        const answer = acceptedAnswer(wire.provider, path, entry.seq);
        res.writeHead(answer.status, answer.headers);
        return void res.end(answer.body);
      }
    }
  }
}
