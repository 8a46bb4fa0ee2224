import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { blockedAddress, vetOutboundUrl } from "../src/providers/webhook/ssrf-guard.ts";
import { createWebhookProvider } from "../src/providers/webhook/webhook-provider.ts";

const servers: http.Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function listen(handler: http.RequestListener): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits += 1;
    handler(req, res);
  });
  server.on("connection", () => undefined);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { port: (server.address() as AddressInfo).port, hits: () => hits };
}

const message = { notificationId: "42", channel: "email" as const, lane: "bulk" as const, to: "a@example.com", body: "hi", data: { notification_id: "42" } };

describe("blockedAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "metadata"],
    ["169.254.10.10", "link_local"],
    ["100.64.0.1", "cgnat"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:a9fe:a9fe", "metadata"],
    ["64:ff9b::7f00:1", "loopback"],
    ["2002:7f00:1::", "loopback"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fe80::1", "link_local"],
    ["fd00:ec2::254", "metadata"],
  ])("refuses %s (%s)", (ip, reason) => {
    expect(blockedAddress(ip)).toBe(reason);
  });

  it.each(["8.8.8.8", "93.184.216.34", "2606:4700:4700::1111", "172.32.0.1", "100.128.0.1"])("allows the public %s", (ip) => {
    expect(blockedAddress(ip)).toBeNull();
  });
});

describe("vetOutboundUrl", () => {
  const noHosts = { allowedHosts: [] as string[] };

  it.each([
    "https://2130706433/",
    "https://0x7f000001/",
    "https://0177.0.0.1/",
    "https://127.1/",
    "https://[::1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://169.254.169.254/latest/meta-data/",
    "https://localhost/",
  ])("refuses %s in whatever spelling", async (url) => {
    await expect(vetOutboundUrl(url, noHosts)).rejects.toThrow(/resolves to a (loopback|metadata) address/);
  });

  it("refuses a public name that resolves to a private address", async () => {
    await expect(
      vetOutboundUrl("https://hooks.example.com/x", { allowedHosts: [], resolve: async () => [{ address: "10.0.0.7", family: 4 }] }),
    ).rejects.toThrow("hooks.example.com resolves to a private address (10.0.0.7)");
  });

  it("refuses http, credentials and garbage", async () => {
    await expect(vetOutboundUrl("http://8.8.8.8/", noHosts)).rejects.toThrow("only https URLs are allowed");
    await expect(vetOutboundUrl("https://user:pw@8.8.8.8/", noHosts)).rejects.toThrow("URLs with credentials are not allowed");
    await expect(vetOutboundUrl("not a url", noHosts)).rejects.toThrow("not a URL");
    await expect(vetOutboundUrl("file:///etc/passwd", noHosts)).rejects.toThrow("only https URLs are allowed");
  });

  it("accepts a public https target and pins its address", async () => {
    const target = await vetOutboundUrl("https://hooks.example.com/x", { allowedHosts: [], resolve: async () => [{ address: "93.184.216.34", family: 4 }] });
    expect(target.address).toBe("93.184.216.34");
  });
});

describe("the generic webhook provider", () => {
  it("never connects to a refused target: a canary listener on loopback sees nothing", async () => {
    const canary = await listen((_req, res) => res.end());
    const provider = createWebhookProvider({ name: "hook", channel: "email", url: `https://127.0.0.1:${canary.port}/`, signingSecret: "s".repeat(32), allowedHosts: [] });
    const [result] = await provider.send([message]);
    expect(result!.outcome).toEqual({ kind: "outage", reason: "webhook_target_refused" });
    expect(canary.hits()).toBe(0);
  });

  it("signs the body, sends the notification id as the idempotency key, and connects to the vetted address", async () => {
    let seen: { headers: http.IncomingHttpHeaders; body: string } | null = null;
    const target = await listen((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen = { headers: req.headers, body };
        res.end("ok");
      });
    });
    const provider = createWebhookProvider({
      name: "hook",
      channel: "email",
      // A name no DNS knows: the connection can only reach the server through the pinned address.
      url: `http://hooks.internal.test:${target.port}/deliver`,
      signingSecret: "k".repeat(32),
      allowedHosts: ["hooks.internal.test"],
      resolve: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    const [result] = await provider.send([message]);
    expect(result!.outcome.kind).toBe("sent");
    const { headers, body } = seen!;
    expect(headers["idempotency-key"]).toBe("42");
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(headers["herald-signature"] as string)!;
    expect(v1).toBe(createHmac("sha256", "k".repeat(32)).update(`${t}.${body}`).digest("hex"));
    expect(JSON.parse(body)).toMatchObject({ notificationId: "42", to: "a@example.com", body: "hi" });
  });

  it("follows no redirect", async () => {
    const elsewhere = await listen((_req, res) => res.end("reached"));
    const redirecting = await listen((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/` });
      res.end();
    });
    const provider = createWebhookProvider({ name: "hook", channel: "email", url: `http://127.0.0.1:${redirecting.port}/`, signingSecret: "s".repeat(32), allowedHosts: ["127.0.0.1"] });
    const [result] = await provider.send([message]);
    expect(result!.outcome).toMatchObject({ kind: "dead", reason: "provider_rejected:302" });
    expect(elsewhere.hits()).toBe(0);
  });

  it("maps statuses: 429 with Retry-After → retry, 500 → retry, 401 → outage, 400 → dead", async () => {
    const statuses = [429, 500, 401, 400];
    const server = await listen((_req, res) => {
      const status = statuses.shift()!;
      res.writeHead(status, status === 429 ? { "retry-after": "120" } : {});
      res.end("x".repeat(200_000));
    });
    const provider = createWebhookProvider({ name: "hook", channel: "email", url: `http://127.0.0.1:${server.port}/`, signingSecret: "s".repeat(32), allowedHosts: ["127.0.0.1"] });
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push((await provider.send([message]))[0]!.outcome);
    expect(outcomes[0]).toMatchObject({ kind: "retry", afterMs: 120_000 });
    expect(outcomes[1]).toMatchObject({ kind: "retry" });
    expect(outcomes[2]).toMatchObject({ kind: "outage" });
    expect(outcomes[3]).toMatchObject({ kind: "dead", reason: "provider_rejected:400" });
  });

  it("gives up on a target that hangs", async () => {
    const hanging = await listen(() => undefined);
    const provider = createWebhookProvider({ name: "hook", channel: "email", url: `http://127.0.0.1:${hanging.port}/`, signingSecret: "s".repeat(32), allowedHosts: ["127.0.0.1"], timeoutMs: 300 });
    const [result] = await provider.send([message]);
    expect(result!.outcome).toEqual({ kind: "retry", reason: "timeout" });
  });
});
