import { describe, expect, it } from "vitest";
import { percentile } from "../../../bench/src/stats.ts";
import { snapshotTables } from "../../../apps/server/test/support/table-snapshot.ts";
import { makeSnsTestSigner, sesNotification } from "../../../apps/server/test/support/sns-signing.ts";
import {
  DELIVERY_ORDERS,
  EMAIL_FATES,
  postInSequence,
  postWebhook,
  sesWebhook,
  SMS_FATES,
  twilioWebhook,
  type DeliveryOrderName,
  type EmailFate,
  type SmsFate,
  type Webhook,
  type WebhookAnswer,
} from "../src/webhook-driver.ts";
import { untilWebhooksApplied, useWebhookScenario, webhookOutcomes, type SentMessage } from "../src/webhook-scenario.ts";

// One user per delivery order and email fate (SMS fates in turn): every fate is delivered in
// every order, and the in-order group is the reference the others must match.
const ORDERS = Object.keys(DELIVERY_ORDERS) as DeliveryOrderName[];
const EMAIL = Object.keys(EMAIL_FATES) as EmailFate[];
const SMS = Object.keys(SMS_FATES) as SmsFate[];
const USERS = ORDERS.length * EMAIL.length;
/** What in-order delivery must give each fate: its status, and the suppression it earns. */
const IN_ORDER: Record<string, { status: string; suppression: string | null }> = {
  "email:delivered": { status: "delivered", suppression: null },
  "email:bounced": { status: "bounced", suppression: "hard_bounce" },
  "email:failed": { status: "failed", suppression: null },
  "email:complained": { status: "delivered", suppression: "complaint" },
  "email:bounced after delivery": { status: "bounced", suppression: "hard_bounce" },
  "sms:delivered": { status: "delivered", suppression: null },
  "sms:undelivered": { status: "failed", suppression: null },
  "sms:failed": { status: "failed", suppression: null },
};
// A late SNS delivery keeps the time SNS first published it: 50 minutes ago, inside the hour Herald accepts.
const LATE_PUBLISHED_MS = 50 * 60_000;
/** Everything a webhook can change (the processes' own periodic writes elsewhere would blur the comparison). */
const WEBHOOK_TABLES = ["notifications", "notification_events", "webhook_events", "suppressions", "users", "preferences", "devices"];

describe("provider webhooks in order, reversed, duplicated and late", () => {
  const webhooks = useWebhookScenario("webhook-replay");

  it("ends every notification where in-order delivery does, never moves a status back, and a replay or a forgery changes nothing", async () => {
    const { scenario: s, api, certificates, expected, messages } = await webhooks.sendAll(USERS);
    expect(messages).toHaveLength(2 * USERS);
    const fateOf = (m: SentMessage) => {
      const index = Math.floor((m.user - 1) / ORDERS.length);
      return `${m.channel}:${m.channel === "email" ? EMAIL[index % EMAIL.length] : SMS[index % SMS.length]}`;
    };
    const orderOf = (m: SentMessage) => ORDERS[(m.user - 1) % ORDERS.length]!;
    const lifecycle = (m: SentMessage): Webhook[] => {
      const [, fate] = fateOf(m).split(":") as [string, string];
      if (m.channel === "sms") return SMS_FATES[fate as SmsFate].map((step) => twilioWebhook(step, m.providerMessageId, m.address, api.url));
      // A second between events, as SES timestamps them.
      const first = Date.now() - (orderOf(m) === "late" ? LATE_PUBLISHED_MS : 10_000);
      return EMAIL_FATES[fate as EmailFate].map((step, i) => sesWebhook(step, m.providerMessageId, m.address, { publishedAt: new Date(first + i * 1000) }));
    };

    // Each order's first phase, then (every event of the first applied) the phases it held back.
    const phases = ORDERS.map((order) => DELIVERY_ORDERS[order](messages.filter((m) => orderOf(m) === order).map(lifecycle)));
    const posted: Webhook[] = [];
    const answers: WebhookAnswer[] = [];
    for (let round = 0; round < Math.max(...phases.map((p) => p.length)); round++) {
      for (const phase of phases.map((p) => p[round] ?? [])) {
        posted.push(...phase);
        answers.push(...(await postInSequence(api.url, phase)));
      }
      await untilWebhooksApplied(s.sql);
    }
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);

    // Every order ends where in-order delivery ends: status, logged events and suppression.
    const outcomes = await webhookOutcomes(s.sql);
    const reference = new Map(messages.filter((m) => orderOf(m) === "in order").map((m) => [fateOf(m), outcomes[m.id]!]));
    for (const [fate, outcome] of reference) expect({ fate, ...outcome }).toMatchObject({ fate, ...IN_ORDER[fate] });
    expect(reference.size).toBe(Object.keys(IN_ORDER).length);
    for (const m of messages) expect({ order: orderOf(m), fate: fateOf(m), ...outcomes[m.id]! }).toEqual({ order: orderOf(m), fate: fateOf(m), ...reference.get(fateOf(m))! });

    // The whole set again, as a provider retrying everything would send it: nothing changes.
    const settled = await snapshotTables(s.database.pool, WEBHOOK_TABLES);
    const replayed = await postInSequence(api.url, posted);
    await untilWebhooksApplied(s.sql);
    expect(replayed.filter((a) => a.status !== 200)).toEqual([]);
    expect(await snapshotTables(s.database.pool, WEBHOOK_TABLES)).toEqual(settled);

    // Forgeries against a delivered email and SMS: refused, and nothing changes.
    const email = messages.find((m) => orderOf(m) === "in order" && fateOf(m) === "email:delivered")!;
    const sms = messages.find((m) => orderOf(m) === "in order" && fateOf(m) === "sms:delivered")!;
    const genuineSms = twilioWebhook("undelivered", sms.providerMessageId, sms.address, api.url);
    const genuineDelivery = sesWebhook("Delivery", email.providerMessageId, email.address);
    const bounce = (JSON.parse(sesWebhook("Bounce:permanent", email.providerMessageId, email.address).body) as { Message: string }).Message;
    const forgeries: Array<[string, Webhook]> = [
      ["twilio: signed with another auth token", twilioWebhook("failed", sms.providerMessageId, sms.address, api.url, "not-the-account-token-000000000000")],
      ["twilio: status changed after signing", { ...genuineSms, body: genuineSms.body.replace("MessageStatus=undelivered", "MessageStatus=failed") }],
      ["sns: signed with another key", sesWebhook("Bounce:permanent", email.providerMessageId, email.address, { signer: makeSnsTestSigner() })],
      ["sns: a delivery's message swapped for a bounce", { ...genuineDelivery, body: JSON.stringify({ ...JSON.parse(genuineDelivery.body), Message: bounce }) }],
      [
        "sns: certificate URL not SNS's",
        { ...genuineDelivery, body: JSON.stringify(sesNotification(bounce, { certUrl: "https://sns.us-east-1.amazonaws.com.attacker.example/x.pem" })) },
      ],
    ];
    for (const [what, forged] of forgeries) expect({ what, status: (await postWebhook(api.url, forged)).status }).toEqual({ what, status: 403 });
    await untilWebhooksApplied(s.sql);
    expect(await snapshotTables(s.database.pool, WEBHOOK_TABLES)).toEqual(settled);
    // One download for the whole run, and no connection anywhere else (the foreign URL was refused before any I/O).
    expect(certificates.downloads).toHaveLength(1);
    expect(certificates.refused).toEqual([]);

    const all = [...answers, ...replayed];
    const summary = await s.finish(expected, {
      webhook_requests: all.length + forgeries.length,
      webhook_p99_ms: Math.round(percentile(all.map((a) => a.ms), 99)),
      certificate_fetches: certificates.downloads.length,
    });
    expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, status_regressions: 0, locked_jobs: 0 });
  });
});
