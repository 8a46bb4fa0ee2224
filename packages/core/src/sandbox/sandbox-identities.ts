import type { Channel } from "../channels/channels.ts";

/** What the sandbox provider answers to the send call itself. */
export type SandboxImmediate =
  | { kind: "sent" }
  | { kind: "dead"; reason: string; providerCode: string }
  | { kind: "retry"; reason: string; afterMs?: number };

/** A callback the sandbox delivers after accepting, as SES or Twilio would. */
export interface SandboxEvent {
  event: "delivered" | "bounced" | "complaint" | "auto_reply";
  detail?: Record<string, string>;
}

/** The sandbox's whole answer for one address: the response, later callbacks, and side effects. */
export interface SandboxScript {
  immediate: SandboxImmediate;
  later: SandboxEvent[];
  suppress?: "hard_bounce" | "complaint" | "stop";
  deactivateToken?: "unregistered";
}

/** Addresses that make the sandbox misbehave on purpose, for docs and the dashboard. */
export const SANDBOX_IDENTITIES: Readonly<Record<string, string>> = {
  "success@simulator.amazonses.com": "email: accepted, then delivered (any other email address does the same); a +label (bounce+anna@…) keeps each address's behaviour",
  "bounce@simulator.amazonses.com": "email: accepted, then a permanent bounce; the address is suppressed (hard_bounce)",
  "ooto@simulator.amazonses.com": "email: accepted, delivered, then an out-of-office auto-reply",
  "complaint@simulator.amazonses.com": "email: accepted, delivered, then a spam complaint; the address is suppressed (complaint)",
  "suppressionlist@simulator.amazonses.com": "email: accepted, then bounced as on the account suppression list; suppressed (hard_bounce)",
  "+15005550001": "sms: rejected with 21211, an invalid number",
  "+15005550002": "sms: rejected with 21612, a carrier that cannot be reached",
  "+15005550003": "sms: rejected with 21408, no permission to send to the region",
  "+15005550004": "sms: rejected with 21610, the recipient replied STOP; suppressed (stop)",
  "+15005550009": "sms: rejected with 21614, not a mobile number",
  "invalid-*": "push: a token starting invalid- is rejected as unregistered and deactivated",
  "unavailable-*": "push: a token starting unavailable- gets a transient failure and is retried",
};

// Functions rather than shared objects, so a caller that mutates a script cannot change the next one.
const delivered = (): SandboxEvent => ({ event: "delivered" });

const EMAILS: Readonly<Record<string, () => Omit<SandboxScript, "immediate">>> = {
  "bounce@simulator.amazonses.com": () => ({
    later: [{ event: "bounced", detail: { bounceType: "Permanent", bounceSubType: "General" } }],
    suppress: "hard_bounce",
  }),
  "ooto@simulator.amazonses.com": () => ({ later: [delivered(), { event: "auto_reply" }] }),
  "complaint@simulator.amazonses.com": () => ({
    later: [delivered(), { event: "complaint", detail: { complaintFeedbackType: "abuse" } }],
    suppress: "complaint",
  }),
  "suppressionlist@simulator.amazonses.com": () => ({
    later: [{ event: "bounced", detail: { bounceType: "Permanent", bounceSubType: "OnAccountSuppressionList" } }],
    suppress: "hard_bounce",
  }),
};

// Twilio's magic test numbers and the error codes its test credentials answer with.
const PHONES: Readonly<Record<string, { code: string; suppress?: "stop" }>> = {
  "+15005550001": { code: "21211" },
  "+15005550002": { code: "21612" },
  "+15005550003": { code: "21408" },
  "+15005550004": { code: "21610", suppress: "stop" },
  "+15005550009": { code: "21614" },
};

const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * The simulator mailbox an address names: like SES, a label after "+" keeps the behaviour
 * (bounce+user42@simulator.amazonses.com bounces), so many recipients can each bounce once.
 */
function simulatorMailbox(address: string): string {
  const normalised = address.trim().toLowerCase();
  return normalised.replace(/^([^@+]+)\+[^@]*(@simulator\.amazonses\.com)$/, "$1$2");
}

function rejected(code: string): SandboxImmediate {
  return { kind: "dead", reason: `provider_rejected:${code}`, providerCode: code };
}

/** How the sandbox provider answers a send to `address` on `channel`. */
export function sandboxScript(channel: Channel, address: string): SandboxScript {
  switch (channel) {
    case "email": {
      const special = EMAILS[simulatorMailbox(address)];
      return { immediate: { kind: "sent" }, ...(special ? special() : { later: [delivered()] }) };
    }
    case "sms": {
      const special = PHONES[address];
      if (special) return { immediate: rejected(special.code), later: [], ...(special.suppress ? { suppress: special.suppress } : {}) };
      // Twilio refuses what is not a phone number with the same code as an invalid one.
      if (!E164.test(address)) return { immediate: rejected("21211"), later: [] };
      return { immediate: { kind: "sent" }, later: [delivered()] };
    }
    case "push":
      if (address.startsWith("invalid-")) return { immediate: rejected("unregistered"), later: [], deactivateToken: "unregistered" };
      if (address.startsWith("unavailable-")) return { immediate: { kind: "retry", reason: "unavailable" }, later: [] };
      return { immediate: { kind: "sent" }, later: [delivered()] };
  }
}
