import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookProvider } from "../src/providers/webhook/webhook-provider.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation } from "./support/trpc-http.ts";

// The generic webhook provider aimed at loopback, private, link-local and metadata addresses in
// every spelling the WHATWG URL parser accepts, and at a name that resolves to loopback: refused
// when an admin saves it (over HTTP, as the dashboard does) and again when a message is sent,
// before any connection — a canary listening on the loopback port the URL names sees none.

/** Spellings of 127.0.0.1 (and ::1); `PORT` becomes the canary's port. */
const LOOPBACK = [
  "https://127.0.0.1:PORT/",
  "https://2130706433:PORT/",
  "https://0x7f000001:PORT/",
  "https://017700000001:PORT/",
  "https://0177.0.0.1:PORT/",
  "https://0x7f.0.0.1:PORT/",
  "https://0x7f.1:PORT/",
  "https://127.1:PORT/",
  "https://127.000.000.001:PORT/",
  "https://127.0.0.1.:PORT/",
  "https://%31%32%37.0.0.1:PORT/",
  "https://①②⑦.0.0.1:PORT/",
  "https://127.42.42.42:PORT/",
  "https://[::1]:PORT/",
  "https://[0:0:0:0:0:0:0:1]:PORT/",
  "https://[::ffff:127.0.0.1]:PORT/",
  "https://[::ffff:7f00:1]:PORT/",
  "https://[0:0:0:0:0:ffff:7f00:1]:PORT/",
  "https://[::127.0.0.1]:PORT/",
  "https://[64:ff9b::127.0.0.1]:PORT/",
  "https://[2002:7f00:1::]:PORT/",
  "https://localhost:PORT/",
  "https://LOCALHOST:PORT/",
];

/** Other refused ranges, where no canary can listen: refused all the same, before any connection. */
const ELSEWHERE = [
  "https://0/",
  "https://0.0.0.0/",
  "https://[::]/",
  "https://10.0.0.1/",
  "https://012.0.0.1/",
  "https://172.16.0.1/",
  "https://192.168.1.1/",
  "https://0xc0a80101/",
  "https://[::ffff:192.168.1.1]/",
  "https://[fd12:3456::1]/",
  "https://169.254.169.254/latest/meta-data/",
  "https://2852039166/latest/meta-data/",
  "https://0xa9fea9fe/",
  "https://0251.0376.0251.0376/",
  "https://[::ffff:169.254.169.254]/",
  "https://[::ffff:a9fe:a9fe]/",
  "https://[fd00:ec2::254]/",
  "https://169.254.10.10/",
  "https://[fe80::1]/",
  "https://100.64.0.1/",
  "https://100.100.100.200/",
  "https://224.0.0.1/",
];

describe("the generic webhook provider aimed anywhere but the public internet", () => {
  const server = useTestServer({ env: { HERALD_SECRET_KEY: "a-test-secret-key-that-is-long-enough-123" } });
  const canaries: http.Server[] = [];
  let port = 0;
  let connections = 0;

  beforeAll(async () => {
    // One port on both loopbacks, so every spelling of 127.0.0.1 and ::1 names a live listener.
    const v4 = http.createServer((_req, res) => res.end("reached"));
    await new Promise<void>((resolve) => v4.listen(0, "127.0.0.1", resolve));
    port = (v4.address() as AddressInfo).port;
    const v6 = http.createServer((_req, res) => res.end("reached"));
    await new Promise<void>((resolve, reject) => v6.once("error", reject).listen(port, "::1", resolve));
    for (const canary of [v4, v6]) {
      canary.on("connection", () => (connections += 1));
      canaries.push(canary);
    }
  });
  afterAll(() => canaries.forEach((c) => c.close()));

  const resolvedUrls = () => [...LOOPBACK, ...ELSEWHERE].map((u) => u.replace("PORT", String(port)));

  it("the canary answers a connection that is allowed, so its silence below means something", async () => {
    const before = connections;
    const provider = createWebhookProvider({ name: "hook", channel: "sms", url: `http://127.0.0.1:${port}/`, signingSecret: "s".repeat(32), allowedHosts: ["127.0.0.1"] });
    expect((await provider.send([message]))[0]!.outcome.kind).toBe("sent");
    expect(connections).toBe(before + 1);
  });

  it("refuses every spelling at save with 400 naming the address, and stores nothing", async () => {
    const { cookie } = await memberWithSession(server.database, "admin");
    const accepted: string[] = [];
    const before = connections;
    for (const url of resolvedUrls()) {
      const result = await trpcMutation(
        server.url,
        "providers.save",
        { channel: "sms", role: "secondary", kind: "webhook", settings: { url }, secrets: { signingSecret: "s".repeat(40) } },
        { cookie },
      );
      if (result.status !== 400 || !/^settings\.url: .+ resolves to an? (loopback|private|link-local|metadata|unspecified|cgnat|multicast|reserved) address/.test(result.error?.message ?? "")) {
        accepted.push(`${url}: ${result.status} ${result.error?.message ?? "saved"}`);
      }
    }
    expect(accepted).toEqual([]);
    expect((await server.database.pool.query("SELECT count(*)::int AS n FROM herald.provider_configs")).rows[0].n).toBe(0);
    expect(connections).toBe(before);
  });

  it("refuses every spelling at send, as an outage of that provider, and never connects", async () => {
    const before = connections;
    const sent: string[] = [];
    for (const url of resolvedUrls()) {
      const provider = createWebhookProvider({ name: "hook", channel: "sms", url, signingSecret: "s".repeat(32), allowedHosts: [] });
      const [result] = await provider.send([message]);
      if (result!.outcome.kind !== "outage" || result!.outcome.reason !== "webhook_target_refused") sent.push(`${url}: ${JSON.stringify(result!.outcome)}`);
    }
    expect(sent).toEqual([]);
    expect(connections).toBe(before);
  });

  it("refuses at send a public-looking name whose DNS answers loopback, among public addresses too", async () => {
    const before = connections;
    for (const answer of [[{ address: "127.0.0.1", family: 4 }], [{ address: "93.184.216.34", family: 4 }, { address: "::1", family: 6 }]]) {
      const provider = createWebhookProvider({
        name: "hook",
        channel: "sms",
        url: `https://hooks.customer.example:${port}/`,
        signingSecret: "s".repeat(32),
        allowedHosts: [],
        resolve: async () => answer,
      });
      expect((await provider.send([message]))[0]!.outcome).toEqual({ kind: "outage", reason: "webhook_target_refused" });
    }
    expect(connections).toBe(before);
  });
});

const message = { notificationId: "7", channel: "sms" as const, lane: "bulk" as const, to: "+4915112345678", body: "hi", data: { notification_id: "7" } };
