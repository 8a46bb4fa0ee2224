import { describe, expect, it } from "vitest";
import { percentile } from "../../../bench/src/stats.ts";
import { EMAIL_FATES, inOrder, postWebhook, sesWebhook, SMS_FATES, twilioWebhook, type Webhook } from "../src/webhook-driver.ts";
import { untilWebhooksApplied, useWebhookScenario, webhookOutcomes } from "../src/webhook-scenario.ts";

// `--long`: issue 9's flood, 500 requests/s for 5 minutes, p99 asserted. Otherwise a small one
// for safety only (timings on a shared 2-core machine are reported, never asserted).
const LONG = Boolean(process.env.HERALD_CHAOS_LONG);
const RATE_PER_S = LONG ? 500 : 100;
const DURATION_S = LONG ? 300 : 5;
const P99_LIMIT_MS = 2_000;
const USERS = 20;

describe(`a webhook flood: ${RATE_PER_S} requests/s for ${DURATION_S} s`, () => {
  const webhooks = useWebhookScenario("webhook-flood");

  it("answers every signed SNS and Twilio request 2xx, regresses nothing and fetches SNS's certificate once", async () => {
    // Every email and SMS delivered, then what keeps coming: opens and clicks (a new SNS message
    // each) and Twilio's callbacks again, which Herald must take as the duplicates they are.
    const { scenario: s, api, certificates, expected, messages } = await webhooks.sendAll(USERS);
    const emails = messages.filter((m) => m.channel === "email");
    const lifecycles = messages.map((m) =>
      m.channel === "email"
        ? EMAIL_FATES.delivered.map((step) => sesWebhook(step, m.providerMessageId, m.address))
        : SMS_FATES.delivered.map((step) => twilioWebhook(step, m.providerMessageId, m.address, api.url)),
    );
    const delivered = inOrder(lifecycles);
    const callbacks = delivered.filter((w) => w.provider === "twilio");
    const request = (i: number): Webhook => {
      if (i < delivered.length) return delivered[i]!;
      if (i % 2 === 1) return callbacks[i % callbacks.length]!;
      const email = emails[i % emails.length]!;
      return sesWebhook(i % 4 === 0 ? "Open" : "Click", email.providerMessageId, email.address);
    };

    // Open loop: requests leave on schedule whether or not earlier ones were answered.
    const total = RATE_PER_S * DURATION_S;
    const latencies = new Float64Array(total);
    const refusals: string[] = [];
    const inFlight = new Set<Promise<void>>();
    const started = performance.now();
    for (let next = 0; next < total; ) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE_PER_S) + 1);
      for (; next < due; next++) {
        const i = next;
        const answered: Promise<void> = postWebhook(api.url, request(i)).then(
          (answer) => {
            latencies[i] = answer.ms;
            if (answer.status < 200 || answer.status > 299) refusals.push(`#${i}: ${answer.status}`);
          },
          (error: unknown) => void refusals.push(`#${i}: ${String(error)} (${String((error as { cause?: unknown }).cause)})`),
        );
        inFlight.add(answered);
        void answered.finally(() => inFlight.delete(answered));
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    const rate = total / ((performance.now() - started) / 1000);
    await Promise.all(inFlight);
    expect(refusals).toEqual([]);

    await untilWebhooksApplied(s.sql, LONG ? 600_000 : 60_000);
    const outcomes = await webhookOutcomes(s.sql);
    for (const m of messages) expect({ id: m.id, status: outcomes[m.id]!.status }).toEqual({ id: m.id, status: "delivered" });
    expect(certificates.downloads).toHaveLength(1);
    expect(certificates.refused).toEqual([]);

    const p99 = Math.round(percentile(latencies, 99));
    const summary = await s.finish(expected, { webhook_requests: total, webhook_p99_ms: p99, certificate_fetches: certificates.downloads.length });
    expect(summary).toMatchObject({ notifications: expected, lost: 0, duplicates: 0, status_regressions: 0, locked_jobs: 0 });
    if (LONG) {
      // The flood was the one asked for (the generator kept its schedule), and Herald kept up with it.
      expect(rate).toBeGreaterThan(0.9 * RATE_PER_S);
      expect(p99).toBeLessThan(P99_LIMIT_MS);
    }
    // The flood's own length, plus sending the emails and SMS first and applying every webhook
    // after: the long run's 5 minutes alone are the whole default timeout.
  }, DURATION_S * 1000 + 240_000);
});
