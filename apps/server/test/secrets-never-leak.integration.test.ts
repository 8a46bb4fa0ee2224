import { createHash } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../src/auth/password.ts";
import { createApp } from "../src/http/app.ts";
import { appRouter } from "../src/trpc/app-router.ts";
import { clientJwt } from "./support/client-jwt.ts";
import { testServiceAccount } from "./support/fcm-credentials.ts";
import { rest } from "./support/rest.ts";
import { capturingLogger } from "./support/ses-webhook-app.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { cookieFrom, trpcMutation, trpcQuery } from "./support/trpc-http.ts";
import { sampleOf } from "./support/zod-samples.ts";

// Every secret Herald holds — provider credentials from the environment and from Settings →
// Providers, the alert webhook's signing secret, HERALD_SECRET_KEY, the client and metrics
// secrets, API keys, passwords and session tokens — used over HTTP, then looked for in every
// log line the app wrote (at debug) and in the answer of every query procedure of the router.
// API keys are shown once, stored as hashes, and dead the moment they are revoked.

const SECRETS = {
  secretKey: "k3y-for-sealing-secrets-at-rest-0001",
  clientSecret: "client-secret-value-0002".padEnd(48, "c"),
  metricsToken: "metrics-token-value-0003-xxxxxxxxxx",
  sesEnv: "sesEnvSecretAccessKey0004/abcdefghijklmnopq",
  twilioEnv: "twilioenvauthtoken0005aaaaaaaaaa",
  sesDashboard: "sesDashSecretAccessKey0006/abcdefghijklmnop",
  twilioDashboard: "twiliodashauthtoken0007bbbbbbbbb",
  webhookSigning: "webhook-signing-secret-0008-yyyyyyyyyyyy",
  alertSigning: "alert-signing-secret-0009-zzzzzzzz",
  password: "a password nobody may see 0010",
};

const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string; inputs: unknown[] } }>).map(
  ([path, p]) => ({ path, type: p._def.type, input: p._def.inputs[0] }),
);

describe("secrets never reach a log line or the browser", () => {
  const server = useTestServer({
    env: {
      HERALD_SECRET_KEY: SECRETS.secretKey,
      HERALD_CLIENT_SECRET: SECRETS.clientSecret,
      HERALD_METRICS_TOKEN: SECRETS.metricsToken,
      HERALD_SES_REGION: "eu-west-1",
      HERALD_SES_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE",
      HERALD_SES_SECRET_ACCESS_KEY: SECRETS.sesEnv,
      HERALD_SES_FROM: "hi@acme.example",
      HERALD_SES_ENDPOINT: "http://127.0.0.1:9",
      HERALD_TWILIO_ACCOUNT_SID: `AC${"1".repeat(32)}`,
      HERALD_TWILIO_AUTH_TOKEN: SECRETS.twilioEnv,
      HERALD_TWILIO_FROM: "+15005550006",
      HERALD_TWILIO_BASE_URL: "http://127.0.0.1:9",
    },
  });
  const { log, lines } = capturingLogger();
  const fcm = testServiceAccount();
  let app: Server;
  let url = "";
  let cookie = "";
  const seen: string[] = [];

  beforeAll(async () => {
    app = createApp({ services: { ...server.services, log }, webDist: "/nonexistent", workerState: () => "running" }).listen(0, "127.0.0.1");
    await new Promise((resolve) => app.once("listening", resolve));
    url = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    cookie = (await memberWithSession(server.database, "admin")).cookie;
  });
  afterAll(() => new Promise((resolve) => app.close(resolve)));

  const mutate = async (path: string, input: unknown) => {
    const result = await trpcMutation(url, path, input, { cookie });
    seen.push(JSON.stringify(result.data ?? result.error));
    return result;
  };

  it("stores provider secrets and the alert secret from the dashboard", async () => {
    const saves = [
      { channel: "email", role: "secondary", kind: "ses", settings: { region: "eu-west-1", from: "hi@acme.example" }, secrets: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: SECRETS.sesDashboard } },
      { channel: "sms", role: "secondary", kind: "twilio", settings: { from: "+15005550006" }, secrets: { accountSid: `AC${"2".repeat(32)}`, authToken: SECRETS.twilioDashboard } },
      { channel: "push", role: "primary", kind: "fcm", settings: {}, secrets: { serviceAccount: JSON.stringify(fcm) } },
      { channel: "push", role: "secondary", kind: "webhook", settings: { url: "https://93.184.216.34/hook" }, secrets: { signingSecret: SECRETS.webhookSigning } },
    ];
    for (const save of saves) expect((await mutate("providers.save", save)).error, save.kind).toBeNull();
    expect((await mutate("operations.setAlertWebhookSecret", { secret: SECRETS.alertSigning })).error).toBeNull();
  });

  it("shows an API key once, stores only its hash, and refuses it the moment it is revoked", async () => {
    // The one answer that carries the key, so not among those searched below.
    const created = await trpcMutation(url, "apiKeys.create", { name: "leak test", scope: "admin" }, { cookie });
    const key = created.data.key as string;
    expect(key).toMatch(/^hk_/);
    const stored = (await server.database.pool.query("SELECT * FROM herald.api_keys WHERE id = $1", [created.data.apiKey.id])).rows[0];
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(JSON.stringify(stored)).not.toContain(key.slice(12));
    expect(stored.key_hash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(JSON.stringify((await trpcQuery(url, "apiKeys.list", undefined, { cookie })).data)).not.toContain(key.slice(12));

    expect((await rest(url, "GET", "/categories", `Bearer ${key}`)).status).toBe(200);
    expect((await rest(url, "GET", "/categories", `Bearer ${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`)).status).toBe(401);
    expect((await mutate("apiKeys.revoke", { id: created.data.apiKey.id })).error).toBeNull();
    expect((await rest(url, "GET", "/categories", `Bearer ${key}`)).status).toBe(401);
    (SECRETS as Record<string, string>).apiKey = key;
  });

  it("uses the other secrets over HTTP: a sign-in, the client API, /metrics, link tokens", async () => {
    await server.database.prisma.member.create({ data: { email: "pw@example.com", name: "Pw", role: "viewer", passwordHash: await hashPassword(SECRETS.password) } });
    expect((await trpcMutation(url, "auth.signIn", { email: "pw@example.com", password: `${SECRETS.password}!` })).status).toBe(401);
    const signedIn = await trpcMutation(url, "auth.signIn", { email: "pw@example.com", password: SECRETS.password });
    (SECRETS as Record<string, string>).session = cookieFrom(signedIn.setCookie).split("=")[1]!;
    const token = clientJwt({ sub: "u-1", exp: Math.floor(Date.now() / 1000) + 600 }, SECRETS.clientSecret);
    (SECRETS as Record<string, string>).clientToken = token;
    expect((await fetch(`${url}/api/v1/client/notifications`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${SECRETS.metricsToken}` } })).status).toBe(200);
    expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${SECRETS.metricsToken}x` } })).status).toBe(401);
    // Link and invite tokens travel in the path, and anything may ride in a query string.
    const linkToken = "link-token-in-the-path-0011-wwwwwwwwwwww";
    (SECRETS as Record<string, string>).linkToken = linkToken;
    for (const path of [`/u/${linkToken}`, `/t/c/${linkToken}`, `/t/o/${linkToken}.gif`, `/invite/${linkToken}`, `/api/v1/categories?key=${linkToken}`]) {
      await (await fetch(`${url}${path}`, { redirect: "manual" })).arrayBuffer();
    }
  });

  it("answers no query procedure with a secret in it", async () => {
    for (const { path, input } of procedures.filter((p) => p.type === "query")) {
      for (const value of [undefined, {}, input ? sampleOf(input).value : undefined]) {
        const result = await trpcQuery(url, path, value, { cookie });
        seen.push(`${path}: ${JSON.stringify(result.data ?? result.error)}`);
      }
    }
    const leaks = Object.entries(SECRETS).flatMap(([name, secret]) => seen.filter((text) => text.includes(secret)).map((text) => `${name} in ${text.slice(0, 100)}`));
    expect(leaks).toEqual([]);
    // The masked form is what the browser gets.
    expect(seen.join("\n")).toContain(`••••${SECRETS.sesDashboard.slice(-4)}`);
  });

  it("wrote none of them to the log", () => {
    expect(lines.length).toBeGreaterThan(50);
    const text = lines.map((line) => JSON.stringify(line));
    // The requests above were logged, with their tokens cut out.
    expect(text.some((line) => line.includes('"path":"/u/:token"'))).toBe(true);
    const secrets = { ...SECRETS, fcmPrivateKey: fcm.private_key!.split("\n")[1]! };
    const leaks = Object.entries(secrets).flatMap(([name, secret]) => text.filter((line) => line.includes(secret)).map((line) => `${name} in ${line.slice(0, 160)}`));
    expect(leaks).toEqual([]);
  });
});
