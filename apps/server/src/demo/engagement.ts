import type { StatusEvent } from "@herald/db";
import type { DemoRandom } from "./demo-random.ts";
import type { SandboxOutcome } from "./sandbox-dispatch.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** What the demo knows of a notification it sent: enough to decide how people react to it. */
export interface SentMeta {
  category: string;
  /** The pinned template version: version 2 of a promotion does a little better (the A/B test). */
  version: number | null;
}

/** Share opened, and share of the opened that click, by channel and category. Untracked categories report no opens. */
function appetite(channel: string, meta: SentMeta): { open: number; click: number } {
  if (channel === "sms") return { open: 0, click: 0 };
  if (channel === "push") return { open: meta.category === "security" ? 0 : meta.category === "promotions" && meta.version === 2 ? 0.2 : 0.13, click: 0 };
  switch (meta.category) {
    case "onboarding":
      return { open: 0.55, click: 0.3 };
    case "product":
      return { open: 0.34, click: 0.2 };
    case "newsletter":
      return { open: 0.3, click: 0.15 };
    case "promotions":
      return meta.version === 2 ? { open: 0.27, click: 0.16 } : { open: 0.2, click: 0.11 };
    default:
      return { open: 0, click: 0 };
  }
}

/**
 * The provider's callbacks stamped when they would have arrived (seconds after the send for a
 * delivery or a bounce, hours for a complaint), and people's opens and clicks after that —
 * minutes to days later, so late events land on their send day's cohort. Nothing after `until`
 * (the real now) happens.
 */
export function statusEventsAfterSend(r: DemoRandom, outcome: SandboxOutcome, sentAt: Date, until: Date, metaOf: (notificationId: string) => SentMeta): StatusEvent[] {
  const channelOf = new Map(outcome.sent.map((s) => [s.providerMessageId, s]));
  const events: StatusEvent[] = [];
  const push = (event: Omit<StatusEvent, "at">, at: number) => {
    if (at < until.getTime()) events.push({ ...event, at: new Date(at) });
  };
  for (const callback of outcome.callbacks) {
    const sent = channelOf.get(callback.providerMessageId);
    if (!sent) continue;
    const base = sentAt.getTime();
    switch (callback.kind) {
      case "delivered": {
        const deliveredAt = base + 2 * SECOND + r.next() * 40 * SECOND;
        push(callback, deliveredAt);
        const { open, click } = appetite(sent.channel, metaOf(sent.notificationId));
        if (!r.chance(open)) break;
        const openedAt = deliveredAt + r.exponential(sent.channel === "push" ? 20 * MINUTE : 3 * HOUR);
        push({ providerMessageId: callback.providerMessageId, kind: "opened", detail: { via: sent.channel === "push" ? "app" : "pixel" }, source: "demo" }, openedAt);
        if (r.chance(click)) {
          push({ providerMessageId: callback.providerMessageId, kind: "clicked", detail: { url: "https://example.com/" }, source: "demo" }, openedAt + r.exponential(2 * MINUTE));
        }
        break;
      }
      case "complaint":
        push(callback, base + 5 * MINUTE + r.next() * 6 * HOUR);
        break;
      case "auto_reply":
        push(callback, base + MINUTE + r.next() * 10 * MINUTE);
        break;
      default:
        push(callback, base + 5 * SECOND + r.next() * 55 * SECOND);
    }
  }
  // Applied in time order, as webhooks would arrive: a complaint after its delivery.
  return events.sort((a, b) => a.at.getTime() - b.at.getTime());
}
