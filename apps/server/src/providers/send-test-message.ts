import type { SendOutcome } from "@herald/core";
import type { OutboundMessage, Provider } from "./provider.ts";

/** What a test send answers in the dashboard: the provider's verdict, never its raw body. */
export interface TestSendAnswer {
  to: string;
  provider: string;
  outcome: SendOutcome["kind"];
  providerCode: string | null;
  reason: string | null;
  providerMessageId: string | null;
  latencyMs: number;
}

/**
 * Sends one test message through `provider` and maps its outcome for the dashboard. Shared by the
 * providers page and the template editor so both word an answer alike. A webhook's answer is
 * reduced to its status: echoing a body would make a test send an SSRF oracle.
 */
export async function sendTestMessage(provider: Provider, message: OutboundMessage): Promise<TestSendAnswer> {
  const [result] = await provider.send([message]);
  const outcome = result!.outcome;
  return {
    to: message.to,
    provider: provider.name,
    outcome: outcome.kind,
    providerCode: "providerCode" in outcome ? (outcome.providerCode ?? null) : null,
    reason: "reason" in outcome ? outcome.reason : null,
    providerMessageId: outcome.kind === "sent" ? outcome.providerMessageId : null,
    latencyMs: result!.latencyMs,
  };
}
