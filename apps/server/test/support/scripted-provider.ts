import type { Channel, SendOutcome } from "@herald/core";
import type { OutboundMessage, Provider, ProviderCallResult } from "../../src/providers/provider.ts";

/** A provider whose answers the test scripts, recording every call (the test's ledger). */
export class ScriptedProvider implements Provider {
  readonly calls: OutboundMessage[] = [];
  private script: Array<(m: OutboundMessage) => SendOutcome> = [];
  private fallback: (m: OutboundMessage) => SendOutcome;

  readonly name: string;
  readonly channel: Channel;

  constructor(name: string, channel: Channel, fallback?: (m: OutboundMessage) => SendOutcome) {
    this.name = name;
    this.channel = channel;
    this.fallback = fallback ?? ((m) => ({ kind: "sent", providerMessageId: `${name}-${m.notificationId}-${this.calls.length}` }));
  }

  /** The next answers, in order; then the fallback. */
  answer(...outcomes: Array<SendOutcome | ((m: OutboundMessage) => SendOutcome)>): this {
    this.script.push(...outcomes.map((o) => (typeof o === "function" ? o : () => o)));
    return this;
  }

  always(outcome: SendOutcome | ((m: OutboundMessage) => SendOutcome)): this {
    this.script = [];
    this.fallback = typeof outcome === "function" ? outcome : () => outcome;
    return this;
  }

  async send(messages: readonly OutboundMessage[]): Promise<ProviderCallResult[]> {
    return messages.map((m) => {
      this.calls.push(m);
      const next = this.script.shift() ?? this.fallback;
      return { outcome: next(m), latencyMs: 1 };
    });
  }
}
