import type { AddressInfo } from "node:net";
import express from "express";
import pino from "pino";
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { metricsRoutes } from "../src/http/metrics.ts";
import { eventually, rest } from "./support/rest.ts";
import { useTestServer } from "./support/test-server.ts";

const TOKEN = "metrics-token-0123456789";
const TWILIO_TOKEN = "test_auth_token_0123456789abcdef";

/** One sample's value from a Prometheus text exposition, matched on every given label. */
function sample(text: string, name: string, labels: Record<string, string>): number | null {
  for (const line of text.split("\n")) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const got = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(match[3]);
  }
  return null;
}

async function scrape(url: string, authorization?: string): Promise<Response> {
  return fetch(`${url}/metrics`, authorization ? { headers: { authorization } } : {});
}

describe("GET /metrics", () => {
  const server = useTestServer({
    withWorkers: true,
    env: { HERALD_METRICS_TOKEN: TOKEN, HERALD_TWILIO_AUTH_TOKEN: TWILIO_TOKEN, HERALD_SANDBOX_DELIVERY_DELAY_MS: "50" },
  });

  it("is off (404) while HERALD_METRICS_TOKEN is unset, whatever the request carries", async () => {
    const app = express().use(metricsRoutes({ sql: server.database.pool, token: undefined, log: pino({ level: "silent" }) }));
    const listening = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => listening.once("listening", resolve));
    try {
      const url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
      expect((await scrape(url)).status).toBe(404);
      expect((await scrape(url, "Bearer undefined")).status).toBe(404);
    } finally {
      listening.closeAllConnections();
      await new Promise((resolve) => listening.close(resolve));
    }
  });

  it("answers 401 without a token or with a wrong one", async () => {
    expect((await scrape(server.url)).status).toBe(401);
    expect((await scrape(server.url, `Bearer ${TOKEN}x`)).status).toBe(401);
    expect((await scrape(server.url, TOKEN)).status).toBe(401);
  });

  it("reports real sends through the sandbox, gate skips, webhooks, breakers and the queue", async () => {
    const admin = await server.apiKey("admin");
    await rest(server.url, "PUT", "/categories/orders", admin, { label: "Orders" });
    await rest(server.url, "PUT", "/notification-types/order.paid", admin, {
      channels: [{ channel: "email", category: "orders", content: { subject: "Paid", body: "Thanks" } }],
    });
    const events = await server.apiKey("events");
    await rest(server.url, "PUT", "/users/u-1", events, { email: "ada@example.com" });
    await rest(server.url, "PUT", "/users/u-2", events, { email: "grace@example.com" });
    // No email address: the reachability gate skips it.
    await rest(server.url, "PUT", "/users/u-3", events, { phone: "+4915112345678" });
    for (const user of ["u-1", "u-2", "u-3"]) {
      expect((await rest(server.url, "POST", "/events", events, { eventId: `paid-${user}`, type: "order.paid", userId: user })).status).toBe(202);
    }
    await server.database.pool.query(
      "INSERT INTO herald.provider_breakers (breaker_key, state, consecutive_failures, opened_at, reason) VALUES ('ses-email', 'open', 5, now(), 'timeout')",
    );
    // A signed Twilio status callback for a message Herald does not know: recorded (as an orphan later), counted.
    const params = { MessageSid: "SM0123456789abcdef0123456789abcdef", MessageStatus: "delivered", AccountSid: `AC${"0".repeat(32)}` };
    const signature = twilio.getExpectedTwilioSignature(TWILIO_TOKEN, "http://localhost:3000/webhooks/twilio", params);
    const webhook = await fetch(`${server.url}/webhooks/twilio`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
      body: new URLSearchParams(params).toString(),
    });
    expect(webhook.status).toBe(200);

    const text = await eventually(
      async () => (await scrape(server.url, `Bearer ${TOKEN}`)).text(),
      (t) => sample(t, "herald_sends_total", { provider: "sandbox-email", outcome: "sent" }) === 2 && sample(t, "herald_gate_skips_total", { channel: "email" }) !== null,
      "two sandbox sends and one skip in /metrics",
    );
    const response = await scrape(server.url, `Bearer ${TOKEN}`);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);

    expect(sample(text, "herald_send_latency_seconds_count", { provider: "sandbox-email" })).toBe(2);
    expect(sample(text, "herald_end_to_end_latency_seconds_count", { channel: "email", lane: "bulk" })).toBe(2);
    const { rows } = await server.database.pool.query<{ reason: string }>("SELECT reason FROM herald.notifications WHERE status = 'skipped'");
    expect(rows).toHaveLength(1);
    expect(sample(text, "herald_gate_skips_total", { channel: "email", reason: rows[0]!.reason })).toBe(1);
    expect(sample(text, "herald_webhooks_total", { provider: "twilio", type: "delivered" })).toBe(1);
    expect(sample(text, "herald_breaker_state", { breaker: "ses-email" })).toBe(2);
    // Everything was sent: the database-backed gauges say so, and carry no process label.
    expect(sample(text, "herald_queue_depth", { channel: "email", lane: "bulk", state: "waiting" })).toBe(0);
    expect(sample(text, "herald_queue_oldest_age_seconds", { channel: "sms", lane: "critical" })).toBe(0);
    expect(text).toMatch(/^herald_queue_depth\{channel="email",lane="bulk",state="waiting"\} 0$/m);
    // In-process series say which process recorded them.
    expect(text).toMatch(new RegExp(`^herald_sends_total\\{provider="sandbox-email",outcome="sent",herald_process="[^"]+:${process.pid}"\\} 2$`, "m"));
  });

  it("counts a send the provider rejects under its outcome, not as sent", async () => {
    const admin = await server.apiKey("admin");
    await rest(server.url, "PUT", "/notification-types/order.shipped", admin, {
      channels: [{ channel: "sms", category: "orders", content: { body: "On its way" } }],
    });
    const events = await server.apiKey("events");
    // Twilio's magic number for an invalid one: the sandbox rejects it with 21211, a dead letter.
    await rest(server.url, "PUT", "/users/u-4", events, { phone: "+15005550001" });
    expect((await rest(server.url, "POST", "/events", events, { eventId: "shipped-u-4", type: "order.shipped", userId: "u-4" })).status).toBe(202);

    const text = await eventually(
      async () => (await scrape(server.url, `Bearer ${TOKEN}`)).text(),
      (t) => sample(t, "herald_sends_total", { provider: "sandbox-sms", outcome: "dead" }) !== null,
      "a dead sandbox-sms send in /metrics",
    );
    const { rows } = await server.database.pool.query("SELECT status, reason FROM herald.notifications WHERE channel = 'sms'");
    expect(rows).toEqual([{ status: "dead", reason: "provider_rejected:21211" }]);
    expect(sample(text, "herald_sends_total", { provider: "sandbox-sms", outcome: "dead" })).toBe(1);
    expect(sample(text, "herald_sends_total", { provider: "sandbox-sms", outcome: "sent" })).toBeNull();
    expect(sample(text, "herald_send_latency_seconds_count", { provider: "sandbox-sms" })).toBe(1);
    // A dead letter is not delivered: no end-to-end latency for it, and the email sends are as they were.
    expect(sample(text, "herald_end_to_end_latency_seconds_count", { channel: "sms", lane: "bulk" })).toBeNull();
    expect(sample(text, "herald_sends_total", { provider: "sandbox-email", outcome: "sent" })).toBe(2);
  });

  it("shows notifications waiting in the queue depth while no worker takes them", async () => {
    // Last in this file: with the workers stopped, nothing drains what arrives next.
    await server.workers!.stop();
    const events = await server.apiKey("events");
    for (const eventId of ["paid-again-1", "paid-again-2", "paid-again-3"]) {
      expect((await rest(server.url, "POST", "/events", events, { eventId, type: "order.paid", userId: "u-1" })).status).toBe(202);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    const text = await (await scrape(server.url, `Bearer ${TOKEN}`)).text();
    const { rows } = await server.database.pool.query(
      "SELECT count(*)::int AS n FROM herald.notifications WHERE channel = 'email' AND lane = 'bulk' AND status = 'pending' AND job_queued_at IS NULL AND next_attempt_at <= now()",
    );
    expect(rows[0].n).toBe(3);
    expect(sample(text, "herald_queue_depth", { channel: "email", lane: "bulk", state: "waiting" })).toBe(3);
    expect(sample(text, "herald_queue_depth", { channel: "email", lane: "bulk", state: "in_flight" })).toBe(0);
    expect(sample(text, "herald_queue_oldest_age_seconds", { channel: "email", lane: "bulk" })).toBeGreaterThan(0);
    // Other lanes are not blamed for it.
    expect(sample(text, "herald_queue_depth", { channel: "email", lane: "critical", state: "waiting" })).toBe(0);
    expect(sample(text, "herald_queue_depth", { channel: "sms", lane: "bulk", state: "waiting" })).toBe(0);
  });
});
