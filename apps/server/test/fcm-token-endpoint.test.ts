import { createPublicKey, verify } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFcmProvider } from "../src/providers/fcm/fcm-provider.ts";
import { PROVIDER_KINDS } from "../src/providers/provider-kinds.ts";
import { testServiceAccountWithKey } from "./support/fcm-credentials.ts";
import { RecordingServer } from "./support/recording-server.ts";

// No interceptor here: with the override, firebase-admin's own token exchange must reach the
// local server over a real socket, or the send below has no bearer token.
const fcm = new RecordingServer();
const oauth = new RecordingServer();
const { serviceAccount, publicKey } = testServiceAccountWithKey("herald-token");
let fcmUrl = "";
let oauthUrl = "";

beforeAll(async () => {
  fcmUrl = await fcm.start();
  oauthUrl = await oauth.start();
  oauth.answer = () => ({ status: 200, body: JSON.stringify({ access_token: "ya29.local", expires_in: 3599, token_type: "Bearer" }) });
  fcm.answer = (_r, i) => ({ status: 200, body: JSON.stringify({ name: `projects/herald-token/messages/${i}` }) });
});
afterAll(async () => {
  await fcm.stop();
  await oauth.stop();
});

describe("FCM with a token endpoint override", () => {
  it("exchanges the service account's signed JWT at the override and sends with the token it answers", async () => {
    const provider = createFcmProvider({ name: "fcm-token-test", serviceAccount, endpoint: fcmUrl, tokenEndpoint: oauthUrl });
    const message = { notificationId: "1", channel: "push" as const, lane: "bulk" as const, to: "u", body: "hi", data: { notification_id: "1" }, tokens: ["t1", "t2"] };
    const [result] = await provider.send([message]);
    expect(result!.outcome).toEqual({ kind: "sent", providerMessageId: expect.stringMatching(/^projects\/herald-token\/messages\//) });

    expect(oauth.requests).toHaveLength(1);
    const exchange = oauth.requests[0]!;
    expect(exchange.path).toBe("/token");
    expect(exchange.headers.host).toBe("oauth2.googleapis.com");
    const form = new URLSearchParams(exchange.body);
    expect(form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    const [header, claims, signature] = form.get("assertion")!.split(".");
    expect(verify("RSA-SHA256", Buffer.from(`${header}.${claims}`), createPublicKey(publicKey), Buffer.from(signature!, "base64url"))).toBe(true);
    expect(fcm.requests.map((r) => r.headers.authorization)).toEqual(["Bearer ya29.local", "Bearer ya29.local"]);

    // The token is cached: a second call exchanges nothing.
    await provider.send([message]);
    expect(oauth.requests).toHaveLength(1);
  });

  it("is a setting an admin may store, validated as a URL", () => {
    const settings = PROVIDER_KINDS.fcm.settings;
    expect(settings.safeParse({ tokenEndpoint: "http://127.0.0.1:9" }).success).toBe(true);
    expect(settings.safeParse({ tokenEndpoint: "not a url" }).success).toBe(false);
  });
});
