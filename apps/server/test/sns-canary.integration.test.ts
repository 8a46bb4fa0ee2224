import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerFixture, sesNotification, signEnvelope, TEST_TOPIC_ARN } from "./support/sns-signing.ts";
import { useTestServer } from "./support/test-server.ts";

// The real app with its real certificate download and subscription visit (nothing injected):
// SNS messages whose SigningCertURL or SubscribeURL point at a canary listening on loopback are
// refused with 403, and the canary sees no connection at all — the URLs are judged on their text.

const server = useTestServer({ env: { HERALD_SES_SNS_TOPIC_ARNS: TEST_TOPIC_ARN } });
let canary: http.Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  canary = http.createServer((_req, res) => res.end("-----BEGIN CERTIFICATE-----"));
  canary.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
  port = (canary.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => canary.close(resolve)));

/** URLs that reach the canary, or would if an SNS look-alike check let them through. */
const towardsCanary = () => [
  `https://127.0.0.1:${port}/SimpleNotificationService-x.pem`,
  `http://127.0.0.1:${port}/SimpleNotificationService-x.pem`,
  `https://localhost:${port}/SimpleNotificationService-x.pem`,
  `https://2130706433:${port}/SimpleNotificationService-x.pem`,
  `https://sns.us-east-1.amazonaws.com@127.0.0.1:${port}/x.pem`,
  `https://sns.us-east-1.amazonaws.com:${port}/x.pem`,
  `https://127.0.0.1:${port}/x.pem#sns.us-east-1.amazonaws.com`,
  `https://127.0.0.1:${port}\\@sns.us-east-1.amazonaws.com/x.pem`,
  `https://sns.us-east-1.amazonaws.com.127.0.0.1.nip.io:${port}/x.pem`,
];

async function post(envelope: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/webhooks/ses`, {
    method: "POST",
    headers: { "content-type": "text/plain; charset=UTF-8", "x-amz-sns-message-type": envelope.Type! },
    body: JSON.stringify(envelope),
  });
}

describe("POST /webhooks/ses with URLs that are not SNS's", () => {
  it("the canary counts a connection, so its silence below means something", async () => {
    await fetch(`http://127.0.0.1:${port}/`);
    expect(connections).toBe(1);
    connections = 0;
  });

  it("refuses a SigningCertURL off SNS with 403 and never connects to it", async () => {
    const answers: string[] = [];
    for (const certUrl of towardsCanary()) {
      const res = await post(sesNotification(providerFixture("ses-delivery.json"), { certUrl }));
      const body = (await res.json()) as { error: { message: string } };
      if (res.status !== 403 || body.error.message !== "Rejected: signing_cert_url_not_sns") answers.push(`${certUrl}: ${res.status} ${body.error.message}`);
    }
    expect(answers).toEqual([]);
    expect(connections).toBe(0);
    expect((await server.database.pool.query("SELECT count(*)::int AS n FROM herald.webhook_events")).rows[0].n).toBe(0);
  });

  it("refuses a SubscribeURL or UnsubscribeConfirmation off SNS with 403 and never visits it", async () => {
    const answers: string[] = [];
    for (const type of ["SubscriptionConfirmation", "UnsubscribeConfirmation"]) {
      for (const SubscribeURL of towardsCanary()) {
        const envelope = signEnvelope({
          Type: type,
          MessageId: "165545c9-2a5c-472c-8df2-7ff2be2b3b1b",
          Token: "2336412f37",
          TopicArn: TEST_TOPIC_ARN,
          Message: "You have chosen to subscribe to the topic.",
          SubscribeURL,
          Timestamp: new Date().toISOString(),
        });
        const res = await post(envelope);
        const body = (await res.json()) as { error: { message: string } };
        if (res.status !== 403 || body.error.message !== "Rejected: subscribe_url_not_sns") answers.push(`${type} ${SubscribeURL}: ${res.status} ${body.error.message}`);
      }
    }
    expect(answers).toEqual([]);
    expect(connections).toBe(0);
  });
});
