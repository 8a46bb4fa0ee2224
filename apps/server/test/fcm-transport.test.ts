import { cert, initializeApp, type ServiceAccount } from "firebase-admin/app";
import { getMessaging } from "firebase-admin/messaging";
import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFcmProvider } from "../src/providers/fcm/fcm-provider.ts";
import { interceptOAuthToken, testServiceAccount } from "./support/fcm-credentials.ts";
import { fixture } from "./support/recording-server.ts";

// The measurement behind docs/decisions/0007-fcm-transport.md: HTTP requests per logical send
// against one interceptor on fcm.googleapis.com, for firebase-admin's sendEachForMulticast and for
// Herald's v1 REST provider.

const FCM = "https://fcm.googleapis.com";

/** Intercepts a project's v1 send endpoint, counting requests; `answer` scripts the reply. */
function interceptSend(projectId: string, answer: (scope: nock.Interceptor) => nock.Scope) {
  const counter = { requests: 0 };
  answer(
    nock(FCM)
      .persist()
      .post(`/v1/projects/${projectId}/messages:send`, () => {
        counter.requests += 1;
        return true;
      }),
  );
  return counter;
}

function sdkMessaging(projectId: string) {
  const app = initializeApp({ credential: cert({ ...testServiceAccount(projectId) } as ServiceAccount) }, `measure-${projectId}`);
  const messaging = getMessaging(app);
  // HTTP/2 (the default) is invisible to interceptors: every token just fails.
  messaging.enableLegacyHttpTransport();
  return messaging;
}

beforeAll(() => {
  nock.disableNetConnect();
  interceptOAuthToken();
});
afterAll(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

describe("FCM transport: HTTP requests per logical send", () => {
  it("firebase-admin sendEachForMulticast: 5 requests per token on 503 and on a reset (4 hidden retries, ~7 s)", async () => {
    const on503 = interceptSend("measure-503", (s) => s.reply(503, fixture("fcm-error-unavailable.json")));
    const onReset = interceptSend("measure-reset", (s) => s.replyWithError(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" })));
    const started = performance.now();
    const [a, b] = await Promise.all([
      sdkMessaging("measure-503").sendEachForMulticast({ tokens: ["tok-1", "tok-2"], data: { notification_id: "1" } }),
      sdkMessaging("measure-reset").sendEachForMulticast({ tokens: ["tok-1", "tok-2"], data: { notification_id: "1" } }),
    ]);
    const elapsed = performance.now() - started;

    expect(a.responses.map((r) => r.error?.code)).toEqual(["messaging/server-unavailable", "messaging/server-unavailable"]);
    expect(b.responses.map((r) => r.error?.code)).toEqual(["app/network-error", "app/network-error"]);
    expect(on503.requests).toBe(10);
    expect(onReset.requests).toBe(10);
    // Back-off 0 + 1 + 2 + 4 s between the five tries of each token.
    expect(elapsed).toBeGreaterThanOrEqual(7000);
  }, 30_000);

  it("firebase-admin gives up at once when Retry-After exceeds 60 s (1 request)", async () => {
    const long = interceptSend("measure-long", (s) => s.reply(503, fixture("fcm-error-unavailable.json"), { "Retry-After": "61" }));
    await sdkMessaging("measure-long").sendEachForMulticast({ tokens: ["tok-1"], data: { notification_id: "1" } });
    expect(long.requests).toBe(1);
  });

  it("Herald's v1 REST provider: 1 request per token on 503 and on a reset, answered at once", async () => {
    const on503 = interceptSend("rest-503", (s) => s.reply(503, fixture("fcm-error-unavailable.json")));
    const onReset = interceptSend("rest-reset", (s) => s.replyWithError(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" })));
    const started = performance.now();
    const [[a], [b]] = await Promise.all([
      createFcmProvider({ name: "rest-503", serviceAccount: testServiceAccount("rest-503") }).send([
        { notificationId: "1", channel: "push", lane: "bulk", to: "u", tokens: ["tok-1", "tok-2"], body: "b", data: { notification_id: "1" } },
      ]),
      createFcmProvider({ name: "rest-reset", serviceAccount: testServiceAccount("rest-reset") }).send([
        { notificationId: "1", channel: "push", lane: "bulk", to: "u", tokens: ["tok-1", "tok-2"], body: "b", data: { notification_id: "1" } },
      ]),
    ]);
    expect(a!.outcome).toMatchObject({ kind: "retry", reason: "unavailable" });
    expect(b!.outcome).toMatchObject({ kind: "retry", reason: "network_error" });
    expect(on503.requests).toBe(2);
    expect(onReset.requests).toBe(2);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
