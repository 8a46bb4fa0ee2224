import { describe, expect, it, vi } from "vitest";
import { confirmSnsSubscription } from "../src/http/webhooks/ses-webhook.ts";
import { createSnsVerifier, fetchSnsCertificate, snsStringToSign, snsUrl, SnsEnvelopeSchema, type SnsEnvelope } from "../src/http/webhooks/sns-verifier.ts";
import {
  makeSnsTestSigner,
  providerFixture,
  sesNotification,
  signEnvelope,
  snsTestSigner,
  TEST_CERT_URL,
  TEST_SUBSCRIBE_URL,
  TEST_TOPIC_ARN,
} from "./support/sns-signing.ts";

const parse = (fields: Record<string, unknown>): SnsEnvelope => SnsEnvelopeSchema.parse(fields);

function verifier(now = new Date()) {
  const fetchCertificate = vi.fn(async (_url: string) => snsTestSigner().certificatePem);
  return { fetchCertificate, verify: createSnsVerifier({ fetchCertificate, now: () => now }) };
}

function confirmation(type: "SubscriptionConfirmation" | "UnsubscribeConfirmation", overrides: Record<string, string> = {}, version: "1" | "2" = "2") {
  return signEnvelope(
    {
      Type: type,
      MessageId: "165545c9-2a5c-472c-8df2-7ff2be2b3b1b",
      Token: "2336412f37",
      TopicArn: TEST_TOPIC_ARN,
      Message: "You have chosen to subscribe to the topic.\nTo confirm the subscription, visit the SubscribeURL included in this message.",
      SubscribeURL: TEST_SUBSCRIBE_URL,
      Timestamp: new Date().toISOString(),
      ...overrides,
    },
    { version },
  );
}

describe("snsStringToSign", () => {
  // The two worked examples in test/fixtures/providers/sns-string-to-sign-examples.txt.
  const examples = providerFixture("sns-string-to-sign-examples.txt").split("-----\n");

  it("matches AWS's Notification example byte for byte", () => {
    const expected = examples[2]!;
    const envelope = parse({
      Type: "Notification",
      Message: "My Test Message",
      MessageId: "4d4dc071-ddbf-465d-bba8-08f81c89da64",
      Subject: "My subject",
      Timestamp: "2019-01-31T04:37:04.321Z",
      TopicArn: "arn:aws:sns:us-east-2:123456789012:s4-MySNSTopic-1G1WEFCOXTC0P",
      SignatureVersion: "1",
      Signature: "x",
      SigningCertURL: TEST_CERT_URL,
    });
    expect(snsStringToSign(envelope)).toBe(expected);
  });

  it("matches AWS's SubscriptionConfirmation example byte for byte", () => {
    const expected = examples[4]!;
    const envelope = parse({
      Type: "SubscriptionConfirmation",
      Message: "My Test Message",
      MessageId: "3d891288-136d-417f-bc05-901c108273ee",
      SubscribeURL:
        "https://sns.us-east-2.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:us-east-2:123456789012:s4-MySNSTopic-1G1WEFCOXTC0P&Token=233...",
      Timestamp: "2019-01-31T19:25:13.719Z",
      Token: "233...",
      TopicArn: "arn:aws:sns:us-east-2:123456789012:s4-MySNSTopic-1G1WEFCOXTC0P",
      SignatureVersion: "1",
      Signature: "x",
      SigningCertURL: TEST_CERT_URL,
    });
    expect(snsStringToSign(envelope)).toBe(expected);
  });

  it("leaves Subject out when the notification has none", () => {
    const text = snsStringToSign(parse(sesNotification("{}")));
    expect(text).not.toContain("Subject\n");
    expect(text.endsWith("Type\nNotification\n")).toBe(true);
  });
});

describe("the fixture envelopes parse", () => {
  it.each(["sns-envelope-notification.json", "sns-envelope-subscription-confirmation.json", "sns-envelope-unsubscribe-confirmation.json"])("%s", (name) => {
    expect(SnsEnvelopeSchema.safeParse(JSON.parse(providerFixture(name))).success).toBe(true);
  });

  it("AWS's placeholder signatures do not verify", async () => {
    const fixture = parse(JSON.parse(providerFixture("sns-envelope-notification.json")));
    const { verify } = verifier(new Date("2012-05-02T00:55:00Z"));
    expect(await verify(fixture)).toEqual({ ok: false, reason: "bad_signature" });
  });
});

describe("createSnsVerifier", () => {
  it.each(["1", "2"] as const)("accepts a Notification signed with SignatureVersion %s", async (version) => {
    const { verify } = verifier();
    expect(await verify(parse(sesNotification(providerFixture("ses-delivery.json"), { version })))).toEqual({ ok: true });
  });

  it.each(["SubscriptionConfirmation", "UnsubscribeConfirmation"] as const)("accepts a signed %s (v1 and v2)", async (type) => {
    const { verify } = verifier();
    expect(await verify(parse(confirmation(type, {}, "1")))).toEqual({ ok: true });
    expect(await verify(parse(confirmation(type, {}, "2")))).toEqual({ ok: true });
  });

  it("accepts a signed Subject", async () => {
    const { verify } = verifier();
    const fields = signEnvelope({ ...sesNotification("{}"), Subject: "Amazon SES Email Event Notification" });
    expect(await verify(parse(fields))).toEqual({ ok: true });
  });

  it("refuses any change to a signed field", async () => {
    const { verify } = verifier();
    const signed = sesNotification(providerFixture("ses-delivery.json"));
    for (const [field, value] of [
      ["Message", providerFixture("ses-bounce-permanent.json")],
      ["MessageId", "another-id"],
      ["TopicArn", "arn:aws:sns:us-east-1:123456789012:other"],
      ["Subject", "added"],
    ] as const) {
      expect(await verify(parse({ ...signed, [field]: value })), field).toEqual({ ok: false, reason: "bad_signature" });
    }
  });

  it("refuses a signature by another key", async () => {
    const { verify } = verifier();
    const forged = sesNotification(providerFixture("ses-delivery.json"), { signer: makeSnsTestSigner() });
    expect(await verify(parse(forged))).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses a v1 signature presented as v2, and unknown versions", async () => {
    const { verify } = verifier();
    const v1 = sesNotification("{}", { version: "1" });
    expect(await verify(parse({ ...v1, SignatureVersion: "2" }))).toEqual({ ok: false, reason: "bad_signature" });
    expect(await verify(parse({ ...v1, SignatureVersion: "3" }))).toEqual({ ok: false, reason: "unsupported_signature_version" });
  });

  it("refuses messages older than an hour, or from the future, without fetching", async () => {
    const now = new Date("2026-11-30T12:00:00Z");
    const { verify, fetchCertificate } = verifier(now);
    const at = (ms: number) => parse(sesNotification("{}", { timestamp: new Date(now.getTime() + ms) }));
    expect(await verify(at(-61 * 60_000))).toEqual({ ok: false, reason: "stale" });
    expect(await verify(at(10 * 60_000))).toEqual({ ok: false, reason: "from_the_future" });
    expect(fetchCertificate).not.toHaveBeenCalled();
    expect(await verify(at(-59 * 60_000))).toEqual({ ok: true });
  });

  it("fetches each certificate once and keeps it", async () => {
    const { verify, fetchCertificate } = verifier();
    for (let i = 0; i < 3; i++) expect(await verify(parse(sesNotification("{}")))).toEqual({ ok: true });
    expect(fetchCertificate).toHaveBeenCalledTimes(1);
    expect(fetchCertificate).toHaveBeenCalledWith(TEST_CERT_URL);
  });

  it("does not keep a failed download: the next message fetches again", async () => {
    const fetchCertificate = vi.fn<(url: string) => Promise<string>>().mockRejectedValueOnce(new Error("ECONNRESET"));
    fetchCertificate.mockResolvedValue(snsTestSigner().certificatePem);
    const verify = createSnsVerifier({ fetchCertificate });
    expect(await verify(parse(sesNotification("{}")))).toEqual({ ok: false, reason: "certificate_unavailable" });
    expect(await verify(parse(sesNotification("{}")))).toEqual({ ok: true });
    expect(fetchCertificate).toHaveBeenCalledTimes(2);
  });

  it("refuses a certificate that is not one", async () => {
    const verify = createSnsVerifier({ fetchCertificate: async () => "<html>not a certificate</html>" });
    expect(await verify(parse(sesNotification("{}")))).toEqual({ ok: false, reason: "bad_certificate" });
  });

  const FOREIGN_CERT_URLS = [
    "https://sns.us-east-1.amazonaws.com.evil.com/SimpleNotificationService-x.pem",
    "https://s3.amazonaws.com/SimpleNotificationService-x.pem",
    "https://sns-us-east-1.amazonaws.com/SimpleNotificationService-x.pem",
    "https://evilsns.us-east-1.amazonaws.com/SimpleNotificationService-x.pem",
    "http://sns.us-east-1.amazonaws.com/SimpleNotificationService-x.pem",
    "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-x.txt",
    "https://sns.us-east-1.amazonaws.com:8443/SimpleNotificationService-x.pem",
    "https://sns.us-east-1.amazonaws.com@evil.com/x.pem",
    "https://user:pass@sns.us-east-1.amazonaws.com/x.pem",
    "https://evil.com\\@sns.us-east-1.amazonaws.com/x.pem",
    "https://evil.com#@sns.us-east-1.amazonaws.com/x.pem",
    "https://sns.us-east-1.amazonaws.com./x.pem",
    "//sns.us-east-1.amazonaws.com/x.pem",
    "not a url",
  ];

  it.each(FOREIGN_CERT_URLS)("refuses SigningCertURL %s before any network I/O", async (certUrl) => {
    const { verify, fetchCertificate } = verifier();
    expect(await verify(parse(sesNotification("{}", { certUrl })))).toEqual({ ok: false, reason: "signing_cert_url_not_sns" });
    expect(fetchCertificate).not.toHaveBeenCalled();
  });

  it("refuses a SubscribeURL off SNS before any network I/O", async () => {
    const { verify, fetchCertificate } = verifier();
    for (const SubscribeURL of ["https://evil.example/?Action=ConfirmSubscription", "https://sns.us-east-1.amazonaws.com.evil.com/?Action=ConfirmSubscription", "http://sns.us-east-1.amazonaws.com/"]) {
      expect(await verify(parse(confirmation("SubscriptionConfirmation", { SubscribeURL }))), SubscribeURL).toEqual({ ok: false, reason: "subscribe_url_not_sns" });
    }
    expect(fetchCertificate).not.toHaveBeenCalled();
  });
});

describe("snsUrl", () => {
  it("accepts SNS's own hosts, China's included", () => {
    expect(snsUrl("https://sns.us-west-2.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem", "certificate")).not.toBeNull();
    expect(snsUrl("https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-x.pem", "certificate")).not.toBeNull();
    expect(snsUrl("https://SNS.US-EAST-1.AMAZONAWS.COM/x.pem", "certificate")).not.toBeNull();
    expect(snsUrl("https://sns.us-east-1.amazonaws.com:443/x.pem", "certificate")).not.toBeNull();
    expect(snsUrl(TEST_SUBSCRIBE_URL, "subscribe")).not.toBeNull();
  });
});

describe("the default downloads", () => {
  it("refuse any URL that is not SNS's, without connecting", async () => {
    await expect(fetchSnsCertificate("https://s3.amazonaws.com/x.pem")).rejects.toThrow("is not an SNS certificate URL");
    await expect(fetchSnsCertificate("http://127.0.0.1:1/x.pem")).rejects.toThrow("is not an SNS certificate URL");
    await expect(confirmSnsSubscription("https://attacker.example/?Action=ConfirmSubscription")).rejects.toThrow("is not an SNS URL");
  });
});
