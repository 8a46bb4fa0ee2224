import { openDatabase } from "@herald/db";
import { Logger, runOnce } from "graphile-worker";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { loadEnv } from "../src/env.ts";
import { sesStatusEvents } from "../src/providers/ses/ses-status-events.ts";
import { applyWebhookEventsTask } from "../src/tasks/apply-webhook-events.ts";
import { capturingLogger, startSesWebhookApp } from "./support/ses-webhook-app.ts";
import { providerFixture, sesNotification, signEnvelope, snsTestSigner, TEST_SUBSCRIBE_URL, TEST_TOPIC_ARN, makeSnsTestSigner } from "./support/sns-signing.ts";
import { useTestServer } from "./support/test-server.ts";

const OTHER_ALLOWED_TOPIC = "arn:aws:sns:eu-west-1:123456789012:herald-ses-events-eu";
const server = useTestServer({ env: { HERALD_SES_SNS_TOPIC_ARNS: `${TEST_TOPIC_ARN}, ${OTHER_ALLOWED_TOPIC}` } });
const fetchCertificate = vi.fn(async (_url: string) => snsTestSigner().certificatePem);
const confirmSubscription = vi.fn(async (_url: string) => undefined);
const { log, lines } = capturingLogger();
let app: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  // Until app.ts mounts the router, the webhook runs in its own app over this file's database.
  app = await startSesWebhookApp({ database: server.database, env: server.env, log }, { fetchCertificate, confirmSubscription });
});
afterAll(() => app.close());
beforeEach(() => {
  fetchCertificate.mockClear();
  confirmSubscription.mockClear();
  lines.length = 0;
});

let counter = 0;
const sql = () => server.database.pool;

/** A notification SES accepted, as the dispatcher leaves it. */
async function sentEmail(): Promise<{ id: string; messageId: string; address: string }> {
  counter += 1;
  const messageId = `0100019abc${String(counter).padStart(6, "0")}-test-message-000000`;
  const address = `recipient-${counter}@example.com`;
  const { rows } = await sql().query<{ id: string }>(
    `INSERT INTO herald.notifications (dedup_key, type, channel, category, status, dispatch_state, content, address, provider, provider_message_id, sent_at)
     VALUES ($1, 'receipt', 'email', 'transactional', 'sent', 'done', '{}', $2, 'ses', $3, now()) RETURNING id::text`,
    [`ses-test-${counter}`, address, messageId],
  );
  return { id: rows[0]!.id, messageId, address };
}

/** A fixture SES event re-addressed to `messageId`. */
function sesEvent(fixture: string, messageId: string): string {
  const event = JSON.parse(providerFixture(fixture));
  event.mail.messageId = messageId;
  return JSON.stringify(event);
}

async function post(body: string | Record<string, string>, contentType = "text/plain; charset=UTF-8", url = app.url): Promise<Response> {
  const text = typeof body === "string" ? body : JSON.stringify(body, null, 2);
  const type = typeof body === "string" ? undefined : body.Type;
  return fetch(`${url}/webhooks/ses`, {
    method: "POST",
    headers: { "content-type": contentType, ...(type ? { "x-amz-sns-message-type": type } : {}) },
    body: text,
  });
}

/** Runs the queued apply_webhook_events jobs with graphile-worker itself, as a worker would. */
async function applyQueuedWebhooks(): Promise<number> {
  const { rows } = await sql().query<{ n: number }>("SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'apply_webhook_events'");
  // The test's own pool: graphile-worker ends a pool it made without waiting, and the
  // database drop at teardown could end one of its connections first (an uncaught error).
  await runOnce({
    pgPool: sql(),
    taskList: { apply_webhook_events: applyWebhookEventsTask(sql(), { ses: sesStatusEvents }) },
    noHandleSignals: true,
    logger: new Logger(() => () => undefined),
  });
  return rows[0]!.n;
}

async function notificationRow(id: string) {
  const { rows } = await sql().query(
    `SELECT status, delivered_at, failed_at,
            (SELECT array_agg(type ORDER BY id) FROM herald.notification_events e WHERE e.notification_id = n.id) AS events
       FROM herald.notifications n WHERE id = $1`,
    [id],
  );
  return rows[0];
}

async function webhookRows(messageId: string) {
  const { rows } = await sql().query("SELECT provider, event_key, kind, state FROM herald.webhook_events WHERE provider_message_id = $1 ORDER BY id", [messageId]);
  return rows;
}

async function webhookCount(): Promise<number> {
  const { rows } = await sql().query<{ n: number }>("SELECT count(*)::int AS n FROM herald.webhook_events");
  return rows[0]!.n;
}

async function suppression(address: string) {
  const { rows } = await sql().query("SELECT channel, reason, source FROM herald.suppressions WHERE address = $1", [address]);
  return rows[0] ?? null;
}

function rejectionLogged(reason: string) {
  const line = lines.find((l) => l.reason === reason);
  expect(line, `a log line with reason ${reason}`).toBeDefined();
  expect(line!.msg).toBe("ses webhook rejected");
  // Never the body: no SES payload or signature in the log.
  expect(JSON.stringify(lines)).not.toMatch(/"Signature"|bouncedRecipients|smtpResponse/);
}

describe("POST /webhooks/ses: applied end to end", () => {
  it("a Delivery (SignatureVersion 1) is recorded, queued, and marks the notification delivered", async () => {
    const n = await sentEmail();
    const envelope = sesNotification(sesEvent("ses-delivery.json", n.messageId), { version: "1" });
    const res = await post(envelope);
    expect(res.status).toBe(200);
    expect(await webhookRows(n.messageId)).toEqual([{ provider: "ses", event_key: envelope.MessageId, kind: "Delivery", state: "pending" }]);

    expect(await applyQueuedWebhooks()).toBe(1);
    expect(await notificationRow(n.id)).toEqual({
      status: "delivered",
      delivered_at: new Date("2016-10-19T23:21:04.133Z"),
      failed_at: null,
      events: ["delivered"],
    });
    expect(await webhookRows(n.messageId)).toEqual([expect.objectContaining({ state: "applied" })]);
  });

  it("a permanent bounce (SignatureVersion 2) marks it bounced and suppresses the address", async () => {
    const n = await sentEmail();
    expect((await post(sesNotification(sesEvent("ses-bounce-permanent.json", n.messageId), { version: "2" }))).status).toBe(200);
    await applyQueuedWebhooks();
    expect(await notificationRow(n.id)).toMatchObject({ status: "bounced", failed_at: new Date("2017-08-05T00:41:02.669Z"), events: ["bounced"] });
    expect(await suppression(n.address)).toEqual({ channel: "email", reason: "hard_bounce", source: "ses" });
  });

  it("a complaint suppresses the address without changing the status", async () => {
    const n = await sentEmail();
    expect((await post(sesNotification(sesEvent("ses-complaint.json", n.messageId)))).status).toBe(200);
    await applyQueuedWebhooks();
    expect(await notificationRow(n.id)).toMatchObject({ status: "sent", events: ["complaint"] });
    expect(await suppression(n.address)).toEqual({ channel: "email", reason: "complaint", source: "ses" });
  });

  it("a transient bounce fails the message but keeps the address", async () => {
    const n = await sentEmail();
    await post(sesNotification(sesEvent("ses-bounce-transient.json", n.messageId)));
    await applyQueuedWebhooks();
    expect(await notificationRow(n.id)).toMatchObject({ status: "failed", events: ["failed"] });
    expect(await suppression(n.address)).toBeNull();
  });

  it("in order (Send, DeliveryDelay, Delivery): delivered; Send is kept but ignored", async () => {
    const n = await sentEmail();
    for (const fixture of ["ses-send.json", "ses-delivery-delay.json", "ses-delivery.json"]) {
      expect((await post(sesNotification(sesEvent(fixture, n.messageId)))).status).toBe(200);
    }
    await applyQueuedWebhooks();
    expect(await notificationRow(n.id)).toMatchObject({ status: "delivered", events: ["delivery_delayed", "delivered"] });
    expect((await webhookRows(n.messageId)).map((r) => [r.kind, r.state])).toEqual([
      ["Send", "ignored"],
      ["DeliveryDelay", "applied"],
      ["Delivery", "applied"],
    ]);
  });

  it("reversed (Delivery, DeliveryDelay, Send): still delivered", async () => {
    const n = await sentEmail();
    for (const fixture of ["ses-delivery.json", "ses-delivery-delay.json", "ses-send.json"]) {
      expect((await post(sesNotification(sesEvent(fixture, n.messageId)))).status).toBe(200);
      // Each arrives and is applied before the next, the worst case for ordering.
      await applyQueuedWebhooks();
    }
    expect(await notificationRow(n.id)).toMatchObject({ status: "delivered", delivered_at: new Date("2016-10-19T23:21:04.133Z") });
  });

  it("duplicated: SNS's retry of the same message adds no row and no job", async () => {
    const n = await sentEmail();
    const envelope = sesNotification(sesEvent("ses-delivery.json", n.messageId));
    expect((await post(envelope)).status).toBe(200);
    expect(await applyQueuedWebhooks()).toBe(1);
    const before = await notificationRow(n.id);

    expect((await post(envelope)).status).toBe(200);
    expect(await webhookRows(n.messageId)).toHaveLength(1);
    expect(await applyQueuedWebhooks()).toBe(0);
    expect(await notificationRow(n.id)).toEqual(before);
  });

  it("late: a Delivery after a Bounce does not lower the status", async () => {
    const n = await sentEmail();
    await post(sesNotification(sesEvent("ses-bounce-permanent.json", n.messageId)));
    await applyQueuedWebhooks();
    await post(sesNotification(sesEvent("ses-delivery.json", n.messageId)));
    await applyQueuedWebhooks();
    expect(await notificationRow(n.id)).toMatchObject({ status: "bounced", events: ["bounced", "delivered"] });
  });

  it("an event for a message Herald does not know waits a few minutes for its send, then is kept as an orphan", async () => {
    const messageId = "0100019abcffffff-unknown-message-000000";
    expect((await post(sesNotification(sesEvent("ses-delivery.json", messageId)))).status).toBe(200);
    await applyQueuedWebhooks();
    // The callback may have beaten the commit of its send: still pending, looked at again later.
    expect(await webhookRows(messageId)).toEqual([expect.objectContaining({ kind: "Delivery", state: "pending" })]);
    await sql().query("UPDATE herald.webhook_events SET received_at = now() - interval '10 minutes' WHERE provider_message_id = $1", [messageId]);
    await sql().query("UPDATE graphile_worker._private_jobs SET run_at = now()");
    await applyQueuedWebhooks();
    expect(await webhookRows(messageId)).toEqual([expect.objectContaining({ kind: "Delivery", state: "orphan" })]);
  });

  it("Open and Click from SES's own tracking are recorded but set nothing", async () => {
    const n = await sentEmail();
    await post(sesNotification(sesEvent("ses-open.json", n.messageId)));
    await post(sesNotification(sesEvent("ses-click.json", n.messageId)));
    await applyQueuedWebhooks();
    expect(await notificationRow(n.id)).toMatchObject({ status: "sent", events: null });
    expect((await webhookRows(n.messageId)).map((r) => r.state)).toEqual(["ignored", "ignored"]);
  });

  it("identity notifications (notificationType) are applied too, from a second allowed topic", async () => {
    const n = await sentEmail();
    const res = await post(sesNotification(sesEvent("ses-identity-notification-delivery.json", n.messageId), { topicArn: OTHER_ALLOWED_TOPIC }));
    expect(res.status).toBe(200);
    await applyQueuedWebhooks();
    expect(await notificationRow(n.id)).toMatchObject({ status: "delivered", delivered_at: new Date("2016-01-27T14:59:38.237Z") });
  });

  it("a signed notification that is not an SES event is answered 200 and not recorded", async () => {
    const before = await webhookCount();
    expect((await post(sesNotification("Hello world!"))).status).toBe(200);
    expect(await webhookCount()).toBe(before);
  });
});

describe("POST /webhooks/ses: subscriptions", () => {
  function confirmationEnvelope(type: "SubscriptionConfirmation" | "UnsubscribeConfirmation", overrides: Record<string, string> = {}) {
    const fixture = JSON.parse(providerFixture(`sns-envelope-${type === "SubscriptionConfirmation" ? "subscription" : "unsubscribe"}-confirmation.json`));
    return signEnvelope({
      Type: type,
      MessageId: fixture.MessageId,
      Token: fixture.Token,
      TopicArn: TEST_TOPIC_ARN,
      Message: fixture.Message,
      SubscribeURL: TEST_SUBSCRIBE_URL,
      Timestamp: new Date().toISOString(),
      ...overrides,
    });
  }

  it("a SubscriptionConfirmation visits its SubscribeURL and answers 200", async () => {
    const res = await post(confirmationEnvelope("SubscriptionConfirmation"));
    expect(res.status).toBe(200);
    expect(confirmSubscription).toHaveBeenCalledExactlyOnceWith(TEST_SUBSCRIBE_URL);
  });

  it("an UnsubscribeConfirmation is logged and answered 200, nothing visited", async () => {
    const res = await post(confirmationEnvelope("UnsubscribeConfirmation"));
    expect(res.status).toBe(200);
    expect(confirmSubscription).not.toHaveBeenCalled();
    expect(lines.some((l) => String(l.msg).includes("unsubscribed"))).toBe(true);
  });

  it("a SubscribeURL on another host is 403, never visited, nothing fetched", async () => {
    const res = await post(confirmationEnvelope("SubscriptionConfirmation", { SubscribeURL: "https://attacker.example/?Action=ConfirmSubscription" }));
    expect(res.status).toBe(403);
    expect(confirmSubscription).not.toHaveBeenCalled();
    expect(fetchCertificate).not.toHaveBeenCalled();
    rejectionLogged("subscribe_url_not_sns");
  });

  it("a failing confirmation answers 5xx, so SNS sends it again", async () => {
    confirmSubscription.mockRejectedValueOnce(new Error("connect ETIMEDOUT"));
    const res = await post(confirmationEnvelope("SubscriptionConfirmation"));
    expect(res.status).toBeGreaterThanOrEqual(500);
  });
});

describe("POST /webhooks/ses: refusals", () => {
  it("a forged signature is 403 and records nothing", async () => {
    const n = await sentEmail();
    const before = await webhookCount();
    const forged = sesNotification(sesEvent("ses-bounce-permanent.json", n.messageId), { signer: makeSnsTestSigner() });
    const res = await post(forged);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: { code: "forbidden", message: "Rejected: bad_signature" } });
    expect(await webhookCount()).toBe(before);
    rejectionLogged("bad_signature");
  });

  it("a signed message altered in transit is 403", async () => {
    const n = await sentEmail();
    const signed = sesNotification(sesEvent("ses-delivery.json", n.messageId));
    const res = await post({ ...signed, Message: sesEvent("ses-bounce-permanent.json", n.messageId) });
    expect(res.status).toBe(403);
    expect(await webhookRows(n.messageId)).toEqual([]);
  });

  it("a stale message (over an hour old) is 403", async () => {
    const n = await sentEmail();
    const res = await post(sesNotification(sesEvent("ses-delivery.json", n.messageId), { timestamp: new Date(Date.now() - 61 * 60_000) }));
    expect(res.status).toBe(403);
    expect(await webhookRows(n.messageId)).toEqual([]);
    rejectionLogged("stale");
  });

  it.each(["https://sns.us-east-1.amazonaws.com.evil.com/SimpleNotificationService-x.pem", "https://s3.amazonaws.com/sns-certs/SimpleNotificationService-x.pem"])(
    "a SigningCertURL on %s is 403 and never fetched",
    async (certUrl) => {
      const before = await webhookCount();
      const res = await post(sesNotification(providerFixture("ses-delivery.json"), { certUrl }));
      expect(res.status).toBe(403);
      expect(fetchCertificate).not.toHaveBeenCalled();
      expect(await webhookCount()).toBe(before);
      rejectionLogged("signing_cert_url_not_sns");
    },
  );

  it("a TopicArn outside the allow-list is 403, before any fetch", async () => {
    const res = await post(sesNotification(providerFixture("ses-delivery.json"), { topicArn: "arn:aws:sns:us-east-1:999999999999:someone-else" }));
    expect(res.status).toBe(403);
    expect(fetchCertificate).not.toHaveBeenCalled();
    rejectionLogged("topic_not_allowed");
  });

  it("an unknown Type is 400", async () => {
    const res = await post(signEnvelope({ ...sesNotification(providerFixture("ses-delivery.json")), Type: "Telegram" }));
    expect(res.status).toBe(400);
    rejectionLogged("not_an_sns_envelope");
  });

  it("raw SES JSON (no SNS envelope) is 400", async () => {
    const res = await post(providerFixture("ses-bounce-permanent.json"), "application/json");
    expect(res.status).toBe(400);
    rejectionLogged("not_an_sns_envelope");
  });

  it("malformed JSON is 400", async () => {
    const res = await post('{"Type": "Notification", ');
    expect(res.status).toBe(400);
    rejectionLogged("malformed_json");
  });

  it("a body over 256 KiB is 413", async () => {
    const res = await post(JSON.stringify({ Type: "Notification", Message: "x".repeat(300 * 1024) }));
    expect(res.status).toBe(413);
    rejectionLogged("entity.too.large");
  });

  it("a certificate that cannot be downloaded is 503 (SNS retries), not 403", async () => {
    fetchCertificate.mockRejectedValueOnce(new Error("connect ETIMEDOUT"));
    const res = await post(sesNotification(providerFixture("ses-delivery.json"), { certUrl: "https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-new.pem" }));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
  });
});

describe("POST /webhooks/ses: configuration and availability", () => {
  it("is off (404) when HERALD_SES_SNS_TOPIC_ARNS is unset", async () => {
    const off = await startSesWebhookApp(
      { database: server.database, env: loadEnv({ HERALD_LOG_LEVEL: "silent", DATABASE_URL: server.databaseUrl }), log },
      { fetchCertificate },
    );
    try {
      const res = await post(sesNotification(providerFixture("ses-delivery.json")), undefined, off.url);
      expect(res.status).toBe(404);
      expect(fetchCertificate).not.toHaveBeenCalled();
    } finally {
      await off.close();
    }
  });

  it("answers 503 while the database is down, so SNS retries", async () => {
    const down = openDatabase("postgresql://postgres@127.0.0.1:1/herald");
    const downApp = await startSesWebhookApp({ database: down, env: server.env, log }, { fetchCertificate });
    try {
      const res = await post(sesNotification(providerFixture("ses-delivery.json")), undefined, downApp.url);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
    } finally {
      await downApp.close();
      await down.close();
    }
  });
});
