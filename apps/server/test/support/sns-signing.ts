import { execFileSync } from "node:child_process";
import { sign } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** A locally made RSA key and self-signed certificate standing in for SNS's signing certificate. */
export interface SnsTestSigner {
  certificatePem: string;
  privateKeyPem: string;
}

/** A fresh key and self-signed certificate, made by `openssl req -x509` (Node has no X.509 writer). */
export function makeSnsTestSigner(): SnsTestSigner {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "herald-sns-"));
  try {
    const key = path.join(dir, "key.pem");
    const cert = path.join(dir, "cert.pem");
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=sns.amazonaws.com"],
      { stdio: "ignore" },
    );
    return { certificatePem: fs.readFileSync(cert, "utf8"), privateKeyPem: fs.readFileSync(key, "utf8") };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

let shared: SnsTestSigner | undefined;

/** The signer a test file's certificate fetch serves (one per test process). */
export function snsTestSigner(): SnsTestSigner {
  shared ??= makeSnsTestSigner();
  return shared;
}

export const TEST_TOPIC_ARN = "arn:aws:sns:us-east-1:123456789012:herald-ses-events";
export const TEST_CERT_URL = "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0000000000000000000000000000000.pem";
export const TEST_SUBSCRIBE_URL =
  "https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:us-east-1:123456789012:herald-ses-events&Token=2336412f37";

type Fields = Record<string, string>;

// Written out here, not imported from the verifier, so a bug there is not mirrored here.
const SIGNED_KEYS: Record<string, string[]> = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
};

/** Signs an envelope the way SNS does (every pair `name\nvalue\n`, byte order) and sets the signature fields. */
export function signEnvelope(fields: Fields, options: { version?: "1" | "2"; signer?: SnsTestSigner; certUrl?: string } = {}): Fields {
  const version = options.version ?? "2";
  const signer = options.signer ?? snsTestSigner();
  const keys = SIGNED_KEYS[fields.Type ?? ""] ?? SIGNED_KEYS.Notification!;
  const text = keys
    .filter((k) => fields[k] !== undefined)
    .map((k) => `${k}\n${fields[k]}\n`)
    .join("");
  const signature = sign(version === "1" ? "RSA-SHA1" : "RSA-SHA256", Buffer.from(text, "utf8"), signer.privateKeyPem).toString("base64");
  return { ...fields, SignatureVersion: version, Signature: signature, SigningCertURL: options.certUrl ?? fields.SigningCertURL ?? TEST_CERT_URL };
}

let sequence = 0;

/** A signed SNS Notification carrying `sesEvent` (the JSON text of an `ses-*.json` fixture). */
export function sesNotification(
  sesEvent: string,
  options: { messageId?: string; timestamp?: Date; topicArn?: string; version?: "1" | "2"; signer?: SnsTestSigner; certUrl?: string } = {},
): Fields {
  sequence += 1;
  return signEnvelope(
    {
      Type: "Notification",
      MessageId: options.messageId ?? `00000000-0000-4000-8000-${String(sequence).padStart(12, "0")}`,
      TopicArn: options.topicArn ?? TEST_TOPIC_ARN,
      Message: sesEvent,
      Timestamp: (options.timestamp ?? new Date()).toISOString(),
      UnsubscribeURL: "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=arn:aws:sns:us-east-1:123456789012:herald-ses-events:c9135db0",
    },
    options,
  );
}

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures", "providers");

/** The text of a provider fixture (copied from the shared wire-format set, provenance beside each). */
export function providerFixture(name: string): string {
  return fs.readFileSync(path.join(FIXTURES, name), "utf8");
}
