import type { Channel, Lane } from "../channels/channels.ts";
import { toWallTime } from "../time/wall-time.ts";
import { describeReason } from "./reason-codes.ts";

/** The facts herald.evaluate_gates reports beside its verdict (its `detail` column). */
export interface GateDetail {
  mandatory?: boolean;
  defaultEnabled?: boolean;
  preference?: { enabled: boolean; source: string; changedAt: string | Date };
  suppression?: { reason: string; source: string; at: string | Date };
  quietHours?: { start: string; end: string; timezone: string };
  sentInWindow?: number;
}

/** One tuple's gate verdict and what Explain needs around it to say it in words. */
export interface ExplainInput {
  channel: Channel;
  lane: Lane;
  category: string;
  verdict: "send" | "skip" | "defer";
  reason: string | null;
  deferUntil: Date | null;
  address: string | null;
  tokens: string[] | null;
  detail: GateDetail;
  /** The provider that would carry it (its kind, e.g. "twilio", and its name); null when none is configured. */
  provider: { kind: string | null; name: string } | null;
  /** The user's time zone (or the workspace default), for dates. */
  timeZone: string;
  now: Date;
}

/** The gates in the order the engine applies them, then the provider that would carry the message. */
export const EXPLAIN_STEPS = ["preference", "suppression", "reachability", "quiet_hours", "frequency_cap", "provider"] as const;
export type ExplainStep = (typeof EXPLAIN_STEPS)[number];

/** One gate in words: passed, stopped the message here, or never reached because an earlier one stopped it. */
export interface ExplainedStep {
  step: ExplainStep;
  outcome: "pass" | "stop" | "not_reached";
  words: string;
}

/** What would happen to one channel's message if it were sent now. */
export interface Explanation {
  channel: Channel;
  /** `wait`: the gates pass but no provider is configured, so it would wait for one. */
  outcome: "send" | "skip" | "defer" | "wait";
  reason: string | null;
  /** When a deferred message would go out. */
  deferUntil: Date | null;
  /** "Email: skipped — opted out of marketing email on 2026-11-02 through the unsubscribe link". */
  headline: string;
  steps: ExplainedStep[];
}

const CHANNEL_WORDS: Readonly<Record<Channel, { title: string; noun: string }>> = {
  push: { title: "Push", noun: "push" },
  email: { title: "Email", noun: "email" },
  sms: { title: "SMS", noun: "SMS" },
};

const SOURCE_WORDS: Readonly<Record<string, string>> = {
  api: "through the API",
  unsubscribe_link: "through the unsubscribe link",
  support: "by support",
  import: "by an import",
  dashboard: "in the dashboard",
};

const PROVIDER_WORDS: Readonly<Record<string, string>> = {
  ses: "Amazon SES",
  twilio: "Twilio",
  fcm: "Firebase Cloud Messaging",
  webhook: "the webhook provider",
  sandbox: "the sandbox",
};

const SUPPRESSION_SOURCE_WORDS: Readonly<Record<string, string>> = {
  hard_bounce: "a hard bounce",
  complaint: "a spam complaint",
  stop: "a STOP reply",
  invalid: "an invalid-address report",
  manual: "an operator",
  import: "an imported list",
};

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

function localDate(at: Date, timeZone: string): string {
  const w = toWallTime(at, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** "08:00 Europe/Berlin" today, "2026-12-03 08:00 Europe/Berlin" on another day. */
function localMoment(at: Date, now: Date, timeZone: string): string {
  const w = toWallTime(at, timeZone);
  const day = localDate(at, timeZone) === localDate(now, timeZone) ? "" : `${localDate(at, timeZone)} `;
  return `${day}${pad(w.hour)}:${pad(w.minute)} ${timeZone}`;
}

function preferenceStep(input: ExplainInput): ExplainedStep {
  const { detail, category } = input;
  const noun = CHANNEL_WORDS[input.channel].noun;
  const what = `${category} ${noun}`;
  const pref = detail.preference;
  const when = pref ? `on ${localDate(new Date(pref.changedAt), input.timeZone)} ${SOURCE_WORDS[pref.source] ?? `(${pref.source})`}` : "";
  if (detail.mandatory) {
    return {
      step: "preference",
      outcome: "pass",
      words:
        pref && !pref.enabled
          ? `${category} is mandatory: their opt-out of ${what} ${when} does not apply`
          : `${category} is mandatory: it is sent whatever the preferences say`,
    };
  }
  if (input.reason === "category_disabled") {
    return {
      step: "preference",
      outcome: "stop",
      words: pref ? `opted out of ${what} ${when}` : `${what} is off by default and they never opted in`,
    };
  }
  return {
    step: "preference",
    outcome: "pass",
    words: pref ? `opted in to ${what} ${when}` : `${what} is on by default and they never changed it`,
  };
}

function suppressionStep(input: ExplainInput): ExplainedStep {
  const { reason, detail } = input;
  if (!reason?.startsWith("suppressed:")) {
    return { step: "suppression", outcome: "pass", words: "no suppression on their address" };
  }
  const s = detail.suppression;
  if (!s) return { step: "suppression", outcome: "stop", words: `every active device token is suppressed: ${describeReason(reason)}` };
  const after = SUPPRESSION_SOURCE_WORDS[s.reason] ?? s.reason;
  return {
    step: "suppression",
    outcome: "stop",
    words: `${input.address ?? "the address"} is suppressed after ${after} on ${localDate(new Date(s.at), input.timeZone)} (${s.source})`,
  };
}

function reachabilityStep(input: ExplainInput): ExplainedStep {
  if (input.reason?.startsWith("unreachable:")) return { step: "reachability", outcome: "stop", words: describeReason(input.reason) };
  if (input.channel === "push") {
    const count = input.tokens?.length ?? 0;
    return { step: "reachability", outcome: "pass", words: count === 1 ? "1 active device" : `${count} active devices` };
  }
  return { step: "reachability", outcome: "pass", words: `${input.channel === "email" ? "email address" : "phone number"} ${input.address}` };
}

function quietHoursStep(input: ExplainInput): ExplainedStep {
  const window = input.detail.quietHours;
  if (input.reason === "quiet_hours" && window && input.deferUntil) {
    return {
      step: "quiet_hours",
      outcome: "stop",
      words: `deferred to ${localMoment(input.deferUntil, input.now, window.timezone)} — quiet hours (${window.start}–${window.end})`,
    };
  }
  if (!window) return { step: "quiet_hours", outcome: "pass", words: "no quiet hours" };
  if (input.lane === "critical") {
    return { step: "quiet_hours", outcome: "pass", words: `the critical lane ignores quiet hours (${window.start}–${window.end} ${window.timezone})` };
  }
  return { step: "quiet_hours", outcome: "pass", words: `outside quiet hours (${window.start}–${window.end} ${window.timezone})` };
}

function frequencyCapStep(input: ExplainInput): ExplainedStep {
  const sent = input.detail.sentInWindow;
  if (input.reason === "frequency_capped") {
    const words = `the ${input.category} frequency cap is reached (${sent ?? "?"} sent in its window)`;
    return {
      step: "frequency_cap",
      outcome: "stop",
      words: input.verdict === "defer" && input.deferUntil ? `${words}: deferred to ${localMoment(input.deferUntil, input.now, input.timeZone)}` : words,
    };
  }
  if (sent === undefined) return { step: "frequency_cap", outcome: "pass", words: `${input.category} has no frequency cap` };
  return { step: "frequency_cap", outcome: "pass", words: `under the ${input.category} frequency cap (${sent} sent in its window)` };
}

function recipient(input: ExplainInput): string {
  if (input.channel !== "push") return input.address ?? "their address";
  const count = input.tokens?.length ?? 0;
  return count === 1 ? "their device" : `their ${count} devices`;
}

function providerStep(input: ExplainInput): ExplainedStep {
  if (!input.provider) {
    return { step: "provider", outcome: "stop", words: `no provider is configured for ${CHANNEL_WORDS[input.channel].noun}: it would wait until one is` };
  }
  const label = (input.provider.kind && PROVIDER_WORDS[input.provider.kind]) ?? input.provider.name;
  return { step: "provider", outcome: "pass", words: `would send to ${recipient(input)} through ${label}` };
}

const BUILDERS: Readonly<Record<ExplainStep, (input: ExplainInput) => ExplainedStep>> = {
  preference: preferenceStep,
  suppression: suppressionStep,
  reachability: reachabilityStep,
  quiet_hours: quietHoursStep,
  frequency_cap: frequencyCapStep,
  provider: providerStep,
};

/**
 * Says, gate by gate, what the engine's verdict for one (user, category, channel) means. The
 * verdict comes from the same gate function every send runs; this only puts it into words.
 */
export function explainVerdict(input: ExplainInput): Explanation {
  const steps: ExplainedStep[] = [];
  let stopped: ExplainedStep | null = null;
  for (const step of EXPLAIN_STEPS) {
    if (stopped) {
      steps.push({ step, outcome: "not_reached", words: "not reached" });
      continue;
    }
    const explained = BUILDERS[step](input);
    steps.push(explained);
    if (explained.outcome === "stop") stopped = explained;
  }
  const title = CHANNEL_WORDS[input.channel].title;
  const outcome: Explanation["outcome"] = input.verdict !== "send" ? input.verdict : input.provider ? "send" : "wait";
  // A reason no step recognises (a newer engine's) still gets its catalogue words.
  const why = stopped?.words ?? describeReason(input.reason ?? "");
  const headline =
    outcome === "send"
      ? `${title}: ${steps.at(-1)!.words}`
      : outcome === "defer" && input.reason === "quiet_hours"
        ? `${title}: ${why}`
        : `${title}: ${outcome === "skip" ? "skipped" : outcome === "defer" ? "deferred" : "waiting"} — ${why}`;
  return {
    channel: input.channel,
    outcome,
    reason: input.verdict === "send" ? (input.provider ? null : "channel_unconfigured") : input.reason,
    deferUntil: outcome === "defer" ? input.deferUntil : null,
    headline,
    steps,
  };
}
