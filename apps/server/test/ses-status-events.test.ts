import fs from "node:fs";
import path from "node:path";
import type { StatusEvent } from "@herald/db";
import { describe, expect, it } from "vitest";
import { sesEventKind, sesEventOf, sesStatusEvents } from "../src/providers/ses/ses-status-events.ts";
import { providerFixture } from "./support/sns-signing.ts";

const EVENT_ID = "EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000";

/** The SNS envelope as the webhook stored it, carrying `fixture` as `Message`. */
function envelope(fixture: string): string {
  return JSON.stringify({
    Type: "Notification",
    MessageId: "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
    TopicArn: "arn:aws:sns:us-east-1:123456789012:herald-ses-events",
    Message: providerFixture(fixture),
    Timestamp: "2026-11-30T12:00:00.000Z",
    SignatureVersion: "2",
    Signature: "verified-by-the-webhook",
    SigningCertURL: "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-x.pem",
  });
}

const EXPECTED: Record<string, StatusEvent[]> = {
  "ses-send.json": [],
  "ses-delivery.json": [
    {
      providerMessageId: EVENT_ID,
      kind: "delivered",
      at: new Date("2016-10-19T23:21:04.133Z"), providerTime: true,
      detail: { provider: "ses", smtpResponse: "250 2.6.0 Message received" },
      source: "ses",
    },
  ],
  "ses-bounce-permanent.json": [
    {
      providerMessageId: EVENT_ID,
      kind: "bounced",
      at: new Date("2017-08-05T00:41:02.669Z"), providerTime: true,
      detail: { provider: "ses", bounceType: "Permanent", bounceSubType: "General", diagnosticCode: "smtp; 550 5.1.1 user unknown" },
      suppress: "hard_bounce",
      source: "ses",
    },
  ],
  "ses-bounce-permanent-onaccountsuppressionlist.json": [
    {
      providerMessageId: EVENT_ID,
      kind: "bounced",
      at: new Date("2017-08-05T00:41:02.669Z"), providerTime: true,
      detail: { provider: "ses", bounceType: "Permanent", bounceSubType: "OnAccountSuppressionList" },
      suppress: "hard_bounce",
      source: "ses",
    },
  ],
  // Published only once SES has stopped retrying: the message failed, the address stays.
  "ses-bounce-transient.json": [
    {
      providerMessageId: EVENT_ID,
      kind: "failed",
      at: new Date("2017-08-05T00:41:02.669Z"), providerTime: true,
      detail: { provider: "ses", bounceType: "Transient", bounceSubType: "MailboxFull", diagnosticCode: "smtp; 452 4.2.2 mailbox full" },
      source: "ses",
    },
  ],
  "ses-bounce-undetermined.json": [
    {
      providerMessageId: EVENT_ID,
      kind: "failed",
      at: new Date("2017-08-05T00:41:02.669Z"), providerTime: true,
      detail: { provider: "ses", bounceType: "Undetermined", bounceSubType: "Undetermined" },
      source: "ses",
    },
  ],
  "ses-complaint.json": [
    {
      providerMessageId: EVENT_ID,
      kind: "complaint",
      at: new Date("2017-08-05T00:41:02.669Z"), providerTime: true,
      detail: { provider: "ses", complaintFeedbackType: "abuse" },
      suppress: "complaint",
      source: "ses",
    },
  ],
  "ses-reject.json": [
    { providerMessageId: EVENT_ID, kind: "failed", at: new Date("2016-10-14T17:38:15.211Z"), providerTime: true, detail: { provider: "ses", rejected: "Bad content" }, source: "ses" },
  ],
  "ses-delivery-delay.json": [
    {
      providerMessageId: EVENT_ID,
      kind: "delivery_delayed",
      at: new Date("2020-06-16T00:25:40.095Z"), providerTime: true,
      detail: {
        provider: "ses",
        delayType: "TransientCommunicationFailure",
        expirationTime: "2020-06-16T00:25:40.914Z",
        diagnosticCode: "smtp; 421 4.4.1 Unable to connect to remote host",
      },
      source: "ses",
    },
  ],
  "ses-rendering-failure.json": [
    {
      providerMessageId: EVENT_ID,
      kind: "failed",
      at: new Date("2018-01-22T18:43:06.197Z"), providerTime: true,
      detail: { provider: "ses", renderingFailure: "Attribute 'attributeName' is not present in the rendering data.", templateName: "MyTemplate" },
      source: "ses",
    },
  ],
  "ses-subscription.json": [],
  // SES's own open/click tracking: Herald's tracking is the one source of opened/clicked.
  "ses-open.json": [],
  "ses-click.json": [],
  "ses-identity-notification-delivery.json": [
    {
      providerMessageId: "0000014644fe5ef6-9a483358-9170-4cb4-a269-f5dcdf415321-000000",
      kind: "delivered",
      at: new Date("2016-01-27T14:59:38.237Z"), providerTime: true,
      detail: { provider: "ses", smtpResponse: "250 ok:  Message 64111812 accepted" },
      source: "ses",
    },
  ],
  "ses-identity-notification-bounce-with-dsn.json": [
    {
      providerMessageId: "00000138111222aa-33322211-cccc-cccc-cccc-ddddaaaa0680-000000",
      kind: "bounced",
      at: new Date("2016-01-27T14:59:38.237Z"), providerTime: true,
      detail: { provider: "ses", bounceType: "Permanent", bounceSubType: "General", diagnosticCode: "smtp; 550 5.1.1 <jane@example.com>... User" },
      suppress: "hard_bounce",
      source: "ses",
    },
  ],
  "ses-identity-notification-bounce-no-dsn.json": [
    {
      providerMessageId: "00000137860315fd-34208509-5b74-41f3-95c5-22c1edc3c924-000000",
      kind: "bounced",
      at: new Date("2016-01-27T14:59:38.237Z"), providerTime: true,
      detail: { provider: "ses", bounceType: "Permanent", bounceSubType: "General" },
      suppress: "hard_bounce",
      source: "ses",
    },
  ],
  "ses-identity-notification-complaint-with-feedback.json": [
    {
      providerMessageId: "000001378603177f-7a5433e7-8edb-42ae-af10-f0181f34d6ee-000000",
      kind: "complaint",
      at: new Date("2016-01-27T14:59:38.237Z"), providerTime: true,
      detail: { provider: "ses", complaintFeedbackType: "abuse" },
      suppress: "complaint",
      source: "ses",
    },
  ],
  "ses-identity-notification-complaint-no-feedback.json": [
    {
      providerMessageId: "0000013786031775-163e3910-53eb-4c8e-a04a-f29debf88a84-000000",
      kind: "complaint",
      at: new Date("2016-01-27T14:59:38.237Z"), providerTime: true,
      detail: { provider: "ses" },
      suppress: "complaint",
      source: "ses",
    },
  ],
};

describe("sesStatusEvents", () => {
  it("covers every ses-*.json fixture", () => {
    const fixtures = fs.readdirSync(path.join(import.meta.dirname, "fixtures", "providers")).filter((f) => /^ses-.*\.json$/.test(f));
    expect(Object.keys(EXPECTED).sort()).toEqual(fixtures.sort());
  });

  it.each(Object.entries(EXPECTED))("%s", (fixture, expected) => {
    expect(sesStatusEvents(envelope(fixture))).toEqual(expected);
  });

  it("names the kind the webhook log records, from either format", () => {
    expect(sesEventKind(sesEventOf(envelope("ses-rendering-failure.json"))!)).toBe("Rendering Failure");
    expect(sesEventKind(sesEventOf(envelope("ses-identity-notification-delivery.json"))!)).toBe("Delivery");
  });

  it("returns nothing for bodies that are not SES events", () => {
    expect(sesStatusEvents("not json")).toEqual([]);
    expect(sesStatusEvents(JSON.stringify({ Type: "Notification", Message: "Hello world!" }))).toEqual([]);
    expect(sesStatusEvents(JSON.stringify({ Message: JSON.stringify({ eventType: "Delivery" }) }))).toEqual([]);
    expect(sesStatusEvents(JSON.stringify({ Message: JSON.stringify({ mail: { messageId: "x" } }) }))).toEqual([]);
    expect(sesEventOf(JSON.stringify({ Message: JSON.stringify({ eventType: "Future", mail: { messageId: "x" } }) }))).not.toBeNull();
    expect(sesStatusEvents(JSON.stringify({ Message: JSON.stringify({ eventType: "Future", mail: { messageId: "x" } }) }))).toEqual([]);
  });
});
