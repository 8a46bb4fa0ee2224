import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { openDatabase, type Database } from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import express from "express";
import type { JobHelpers } from "graphile-worker";
import pino from "pino";
import twilio from "twilio";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadEnv } from "../src/env.ts";
import { restErrorHandler } from "../src/http/rest-errors.ts";
import { twilioWebhookRoutes } from "../src/http/webhooks/twilio-webhook.ts";
import { twilioStatusEvents } from "../src/providers/twilio/twilio-status-events.ts";
import { applyWebhookEventsTask } from "../src/tasks/apply-webhook-events.ts";
import { reconcileTwilioTask } from "../src/tasks/reconcile-twilio.ts";
import { fixture } from "./support/recording-server.ts";

const AUTH_TOKEN = "test_auth_token_0123456789abcdef";
const PUBLIC_URL = "https://herald.example.com";
const SIGNED_URL = "https://herald.example.com/webhooks/twilio";
const log = pino({ level: "silent" });
const helpers = { logger: { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} } } as unknown as JobHelpers;

let testDatabase: TestDatabase;
let database: Database;
const servers: Server[] = [];
let url: string;

async function serve(app: express.Express): Promise<string> {
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function appFor(db: Database, env: Record<string, string>, options: Parameters<typeof twilioWebhookRoutes>[1] = {}): express.Express {
  const app = express();
  app.use(twilioWebhookRoutes({ database: db, env: loadEnv({ HERALD_LOG_LEVEL: "silent", ...env }), log }, options));
  app.use(restErrorHandler(log));
  return app;
}

beforeAll(async () => {
  testDatabase = await createTestDatabase(inject("templateUrl"));
  database = openDatabase(testDatabase.url);
  url = await serve(appFor(database, { HERALD_PUBLIC_URL: PUBLIC_URL, HERALD_TWILIO_AUTH_TOKEN: AUTH_TOKEN }));
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await database?.close();
  await testDatabase?.drop();
});

let counter = 0;
/** A fresh Twilio message sid, and a `sent` SMS notification that carries it. */
async function sentSms(address = "+15558675310"): Promise<{ sid: string; id: string }> {
  counter += 1;
  const sid = `SM${counter.toString(16).padStart(32, "0")}`;
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO herald.notifications (dedup_key, type, channel, category, status, dispatch_state, content, address, provider, provider_message_id, sent_at)
     VALUES ($1, 'otp', 'sms', 'security', 'sent', 'done', '{}', $2, 'twilio-sms', $3, now() - interval '2 hours') RETURNING id::text`,
    [`twilio-${counter}`, address, sid],
  );
  return { sid, id: rows[0]!.id };
}

/** The parameters Twilio posts for a status callback. */
function callback(sid: string, status: string, extra: Record<string, string> = {}): Array<[string, string]> {
  return Object.entries({
    AccountSid: "ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    ApiVersion: "2010-04-01",
    From: "+15017250604",
    MessageSid: sid,
    MessageStatus: status,
    SmsSid: sid,
    SmsStatus: status,
    To: "+15558675310",
    ...extra,
  });
}

/** Twilio's signature over a URL and every parameter (repeated names as arrays, as Twilio signs them). */
function sign(pairs: Array<[string, string]>, signedUrl = SIGNED_URL): string {
  const params: Record<string, string | string[]> = {};
  for (const [k, v] of pairs) {
    const seen = params[k];
    params[k] = seen === undefined ? v : Array.isArray(seen) ? [...seen, v] : [seen, v];
  }
  return twilio.getExpectedTwilioSignature(AUTH_TOKEN, signedUrl, params);
}

interface PostOptions {
  signature?: string | null;
  contentType?: string;
  headers?: Record<string, string>;
  body?: string;
  base?: string;
}

async function post(pairs: Array<[string, string]>, options: PostOptions = {}): Promise<Response> {
  const signature = options.signature === undefined ? sign(pairs) : options.signature;
  return fetch(`${options.base ?? url}/webhooks/twilio`, {
    method: "POST",
    headers: {
      "content-type": options.contentType ?? "application/x-www-form-urlencoded",
      ...(signature === null ? {} : { "x-twilio-signature": signature }),
      ...options.headers,
    },
    body: options.body ?? new URLSearchParams(pairs).toString(),
  });
}

async function expectTwiml(response: Response): Promise<void> {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/xml/);
  expect(await response.text()).toBe("<Response/>");
}

/** Runs the apply_webhook_events job over everything pending, as the worker would. */
async function applyPending(): Promise<void> {
  const { rows } = await database.pool.query<{ id: string }>("SELECT id::text FROM herald.webhook_events WHERE state = 'pending' ORDER BY id");
  if (rows.length === 0) return;
  await applyWebhookEventsTask(database.pool, { twilio: twilioStatusEvents })({ ids: rows.map((r) => r.id) }, helpers);
}

async function notification(id: string) {
  const { rows } = await database.pool.query("SELECT status, delivered_at, failed_at FROM herald.notifications WHERE id = $1", [id]);
  return rows[0] as { status: string; delivered_at: Date | null; failed_at: Date | null };
}

async function webhookRows(sid: string) {
  const { rows } = await database.pool.query("SELECT event_key, kind, state FROM herald.webhook_events WHERE provider_message_id = $1 ORDER BY id", [sid]);
  return rows as Array<{ event_key: string; kind: string; state: string }>;
}

async function queuedJobs(): Promise<number> {
  const { rows } = await database.pool.query("SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'apply_webhook_events'");
  return rows[0].n as number;
}

async function tableCounts() {
  const { rows } = await database.pool.query(
    "SELECT (SELECT count(*) FROM herald.webhook_events)::int AS events, (SELECT count(*) FROM herald.suppressions)::int AS suppressions",
  );
  return rows[0] as { events: number; suppressions: number };
}

describe("POST /webhooks/twilio: status callbacks", () => {
  it("the fixture's delivered callback, as Twilio posts it: recorded, queued, answered <Response/>, then applied", async () => {
    const raw = fixture("twilio-status-callback-delivered.form");
    const pairs = [...new URLSearchParams(raw)];
    const { rows } = await database.pool.query<{ id: string }>(
      `INSERT INTO herald.notifications (dedup_key, type, channel, category, status, dispatch_state, content, address, provider, provider_message_id, sent_at)
       VALUES ('fixture', 'otp', 'sms', 'security', 'sent', 'done', '{}', '+15558675310', 'twilio-sms', 'SM1342fe1b2c904d1ab04f0fc7a58abca9', now()) RETURNING id::text`,
    );
    const jobsBefore = await queuedJobs();

    await expectTwiml(await post(pairs, { body: raw }));
    expect(await webhookRows("SM1342fe1b2c904d1ab04f0fc7a58abca9")).toEqual([
      { event_key: "SM1342fe1b2c904d1ab04f0fc7a58abca9:delivered", kind: "delivered", state: "pending" },
    ]);
    expect(await queuedJobs()).toBe(jobsBefore + 1);
    const { rows: raws } = await database.pool.query("SELECT raw FROM herald.webhook_events WHERE provider_message_id = 'SM1342fe1b2c904d1ab04f0fc7a58abca9'");
    expect(raws[0].raw).toBe(raw);

    await applyPending();
    expect(await notification(rows[0]!.id)).toMatchObject({ status: "delivered", delivered_at: expect.any(Date) });
    expect((await webhookRows("SM1342fe1b2c904d1ab04f0fc7a58abca9"))[0]!.state).toBe("applied");
  });

  it("in order (queued, sent, delivered): the steps before delivered are kept as ignored and cost no job", async () => {
    const { sid, id } = await sentSms();
    const jobsBefore = await queuedJobs();
    for (const status of ["queued", "sent", "delivered"]) await expectTwiml(await post(callback(sid, status)));
    expect(await queuedJobs()).toBe(jobsBefore + 1);
    await applyPending();
    expect((await notification(id)).status).toBe("delivered");
    expect(await webhookRows(sid)).toEqual([
      { event_key: `${sid}:queued`, kind: "queued", state: "ignored" },
      { event_key: `${sid}:sent`, kind: "sent", state: "ignored" },
      { event_key: `${sid}:delivered`, kind: "delivered", state: "applied" },
    ]);
  });

  it("reversed (delivered, then sent): stays delivered", async () => {
    const { sid, id } = await sentSms();
    await expectTwiml(await post(callback(sid, "delivered")));
    await applyPending();
    await expectTwiml(await post(callback(sid, "sent")));
    await applyPending();
    expect((await notification(id)).status).toBe("delivered");
  });

  it("duplicated: the second delivery of one callback is answered 200 and changes nothing", async () => {
    const { sid } = await sentSms();
    const jobsBefore = await queuedJobs();
    await expectTwiml(await post(callback(sid, "delivered")));
    await expectTwiml(await post(callback(sid, "delivered")));
    expect(await webhookRows(sid)).toHaveLength(1);
    expect(await queuedJobs()).toBe(jobsBefore + 1);
  });

  it("late (failed after delivered, in one job or two): stays delivered", async () => {
    const a = await sentSms();
    await expectTwiml(await post(callback(a.sid, "delivered")));
    await applyPending();
    await expectTwiml(await post(callback(a.sid, "failed", { ErrorCode: "30008" })));
    await applyPending();
    expect((await notification(a.id)).status).toBe("delivered");

    const b = await sentSms();
    await expectTwiml(await post(callback(b.sid, "delivered")));
    await expectTwiml(await post(callback(b.sid, "undelivered", { ErrorCode: "30003" })));
    await applyPending();
    expect((await notification(b.id)).status).toBe("delivered");
  });

  it("undelivered (the fixture's parameters, ErrorCode 30003) → failed, with the code in the notification's log", async () => {
    const { sid, id } = await sentSms();
    await expectTwiml(await post(callback(sid, "undelivered", { ErrorCode: "30003" })));
    await applyPending();
    expect(await notification(id)).toMatchObject({ status: "failed", failed_at: expect.any(Date) });
    const { rows } = await database.pool.query("SELECT type, detail FROM herald.notification_events WHERE notification_id = $1", [id]);
    expect(rows).toContainEqual({ type: "failed", detail: { provider: "twilio", status: "undelivered", errorCode: "30003" } });
  });

  it("failed with 21610 (a Messaging Service refused a STOPped number) suppresses the address", async () => {
    const { sid } = await sentSms("+15550000021");
    await expectTwiml(await post(callback(sid, "failed", { ErrorCode: "21610" })));
    await applyPending();
    const { rows } = await database.pool.query("SELECT reason FROM herald.suppressions WHERE channel = 'sms' AND address = '+15550000021'");
    expect(rows).toEqual([{ reason: "stop" }]);
  });

  it("one job over a flood's group: every message's callbacks applied in arrival order, each logged once", async () => {
    const a = await sentSms();
    const b = await sentSms();
    const unknown = "SMeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
    for (const [sid, status] of [[a.sid, "sent"], [a.sid, "delivered"], [b.sid, "undelivered"], [unknown, "delivered"], [a.sid, "read"]] as const) {
      await expectTwiml(await post(callback(sid, status, status === "undelivered" ? { ErrorCode: "30003" } : {})));
    }
    await applyPending();
    expect(await notification(a.id)).toMatchObject({ status: "delivered" });
    expect(await notification(b.id)).toMatchObject({ status: "failed" });
    expect((await webhookRows(a.sid)).map((r) => r.state)).toEqual(["ignored", "applied", "applied"]);
    expect((await webhookRows(unknown)).map((r) => r.state)).toEqual(["pending"]);
    const { rows } = await database.pool.query(
      "SELECT notification_id::text AS id, type FROM herald.notification_events WHERE notification_id = ANY ($1::bigint[]) AND type IN ('delivered', 'failed', 'read') ORDER BY notification_id, type",
      [[a.id, b.id]],
    );
    expect(rows).toEqual([
      { id: a.id, type: "delivered" },
      { id: a.id, type: "read" },
      { id: b.id, type: "failed" },
    ]);
  });

  it("an unknown MessageSid is kept, looked at again while fresh, then an orphan", async () => {
    const sid = "SMffffffffffffffffffffffffffffffff";
    await expectTwiml(await post(callback(sid, "delivered")));
    await applyPending();
    // A callback may beat the commit of the send it reports on: still pending for a while.
    expect(await webhookRows(sid)).toEqual([{ event_key: `${sid}:delivered`, kind: "delivered", state: "pending" }]);
    await database.pool.query("UPDATE herald.webhook_events SET received_at = now() - interval '1 hour' WHERE provider_message_id = $1", [sid]);
    await applyPending();
    expect(await webhookRows(sid)).toEqual([{ event_key: `${sid}:delivered`, kind: "delivered", state: "orphan" }]);
  });
});

describe("POST /webhooks/twilio: the signature covers the configured URL and every parameter", () => {
  it("accepts parameters Herald has never seen when they are signed", async () => {
    const { sid, id } = await sentSms();
    await expectTwiml(await post(callback(sid, "delivered", { ChannelStatusMessage: "ok", BrandNewParam: "42" })));
    await applyPending();
    expect((await notification(id)).status).toBe("delivered");
  });

  it("refuses a tampered unknown parameter (403) and writes nothing", async () => {
    const { sid } = await sentSms();
    const pairs = callback(sid, "delivered", { BrandNewParam: "42" });
    const signature = sign(pairs);
    const tampered = pairs.map(([k, v]): [string, string] => (k === "BrandNewParam" ? [k, "43"] : [k, v]));
    const before = await tableCounts();
    expect((await post(tampered, { signature })).status).toBe(403);
    // A parameter added after signing is just as forged.
    expect((await post([...pairs, ["Extra", "1"]], { signature })).status).toBe(403);
    expect(await tableCounts()).toEqual(before);
  });

  it("refuses a signature computed for another URL, whatever Host and X-Forwarded-* claim", async () => {
    const { sid } = await sentSms();
    const pairs = callback(sid, "delivered");
    const before = await tableCounts();
    for (const other of ["https://evil.example.com/webhooks/twilio", "http://herald.example.com/webhooks/twilio", `${url}/webhooks/twilio`]) {
      const response = await post(pairs, {
        signature: sign(pairs, other),
        headers: { "x-forwarded-host": new URL(other).host, "x-forwarded-proto": new URL(other).protocol.replace(":", "") },
      });
      expect(response.status).toBe(403);
    }
    expect(await tableCounts()).toEqual(before);
  });

  it("refuses a missing or garbage signature (403)", async () => {
    const { sid } = await sentSms();
    expect((await post(callback(sid, "delivered"), { signature: null })).status).toBe(403);
    expect((await post(callback(sid, "delivered"), { signature: "bm90IGEgc2lnbmF0dXJl" })).status).toBe(403);
    expect(await webhookRows(sid)).toEqual([]);
  });

  it("refuses a body that is not form-encoded (415) and one over 64 KiB (413)", async () => {
    const { sid } = await sentSms();
    const json = await post(callback(sid, "delivered"), { contentType: "application/json", body: JSON.stringify({ MessageSid: sid }) });
    expect(json.status).toBe(415);
    expect(((await json.json()) as { error: { code: string } }).error.code).toBe("unsupported_media_type");
    const big: Array<[string, string]> = [...callback(sid, "delivered"), ["Padding", "x".repeat(70 * 1024)]];
    const large = await post(big);
    expect(large.status).toBe(413);
    expect(await webhookRows(sid)).toEqual([]);
  });
});

describe("POST /webhooks/twilio: inbound STOP and START", () => {
  const inbound = (from: string, body: string, messageSid: string): Array<[string, string]> =>
    Object.entries({ AccountSid: "ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", MessageSid: messageSid, SmsSid: messageSid, SmsStatus: "received", From: from, To: "+15017250604", Body: body, NumMedia: "0" });
  const suppression = async (address: string) =>
    (await database.pool.query("SELECT reason, source FROM herald.suppressions WHERE channel = 'sms' AND address = $1", [address])).rows;

  it("STOP suppresses the number, START lifts it, STOP again suppresses it again", async () => {
    await expectTwiml(await post(inbound("+15557770001", "STOP", "SM00000000000000000000000000000a01")));
    expect(await suppression("+15557770001")).toEqual([{ reason: "stop", source: "twilio" }]);
    await expectTwiml(await post(inbound("+15557770001", "start", "SM00000000000000000000000000000a02")));
    expect(await suppression("+15557770001")).toEqual([]);
    await expectTwiml(await post(inbound("+15557770001", "Unsubscribe", "SM00000000000000000000000000000a03")));
    expect(await suppression("+15557770001")).toEqual([{ reason: "stop", source: "twilio" }]);
    const { rows } = await database.pool.query("SELECT kind, state FROM herald.webhook_events WHERE event_key LIKE 'SM00000000000000000000000000000a0%' ORDER BY id");
    expect(rows).toEqual([
      { kind: "inbound_stop", state: "applied" },
      { kind: "inbound_start", state: "applied" },
      { kind: "inbound_stop", state: "applied" },
    ]);
  });

  it("START never lifts a suppression it did not cause (a manual block stays)", async () => {
    await database.pool.query("INSERT INTO herald.suppressions (channel, address, reason, source) VALUES ('sms', '+15557770002', 'manual', 'operator')");
    await expectTwiml(await post(inbound("+15557770002", "START", "SM00000000000000000000000000000b01")));
    expect(await suppression("+15557770002")).toEqual([{ reason: "manual", source: "operator" }]);
  });

  it("an ordinary reply changes nothing; a forged STOP is refused", async () => {
    const before = await tableCounts();
    await expectTwiml(await post(inbound("+15557770003", "thanks!", "SM00000000000000000000000000000c01")));
    expect((await post(inbound("+15557770003", "STOP", "SM00000000000000000000000000000c02"), { signature: sign([["From", "+1"]]) })).status).toBe(403);
    expect(await tableCounts()).toEqual(before);
  });
});

describe("POST /webhooks/twilio: off, and the database down", () => {
  it("is off (404) without an auth token", async () => {
    const base = await serve(appFor(database, { HERALD_PUBLIC_URL: PUBLIC_URL }));
    const response = await post(callback("SM0000000000000000000000000000dead", "delivered"), { base });
    expect(response.status).toBe(404);
  });

  it("accepts a signature under any of several accounts' tokens (dashboard-configured primary and secondary)", async () => {
    const tokens = ["another_account_token_0123456789", AUTH_TOKEN];
    const base = await serve(appFor(database, { HERALD_PUBLIC_URL: PUBLIC_URL }, { authToken: () => tokens }));
    const { sid } = await sentSms();
    await expectTwiml(await post(callback(sid, "sent"), { base }));
    tokens.length = 0;
    expect((await post(callback(sid, "delivered"), { base })).status).toBe(404);
  });

  it("answers 503 when the database is down, so nothing is lost silently", async () => {
    const closed = openDatabase(testDatabase.url);
    await closed.close();
    const base = await serve(appFor(closed, { HERALD_PUBLIC_URL: PUBLIC_URL, HERALD_TWILIO_AUTH_TOKEN: AUTH_TOKEN }));
    const response = await post(callback("SM0000000000000000000000000000d00d", "delivered"), { base });
    expect(response.status).toBe(503);
  });
});

describe("reconcile_twilio: overdue messages are looked up and applied through the webhook path", () => {
  it("records each answer as `${sid}:${status}:reconciled`, applies the ones that change something, and looks each message up once", async () => {
    const delivered = await sentSms();
    const failed = await sentSms();
    const stillSent = await sentSms();
    const answered = await sentSms();
    await expectTwiml(await post(callback(answered.sid, "delivered"))); // a callback already waiting for its job
    const recent = await sentSms();
    await database.pool.query("UPDATE herald.notifications SET sent_at = now() - interval '5 minutes' WHERE id = $1", [recent.id]);

    const statuses: Record<string, { status: string; errorCode: string | null }> = {
      [delivered.sid]: { status: "delivered", errorCode: null },
      [failed.sid]: { status: "undelivered", errorCode: "30005" },
      [stillSent.sid]: { status: "sent", errorCode: null },
    };
    const asked: string[] = [];
    const fetchStatus = async (sid: string) => {
      asked.push(sid);
      const answer = statuses[sid];
      if (!answer) throw new Error(`HTTP 404: no message ${sid}`);
      return answer;
    };
    const task = reconcileTwilioTask(database.pool, fetchStatus, { olderThanMs: 3_600_000 });
    await task({}, helpers);

    expect(asked).toEqual(expect.arrayContaining([delivered.sid, failed.sid, stillSent.sid]));
    expect(asked).not.toContain(answered.sid);
    expect(asked).not.toContain(recent.sid);
    expect(await webhookRows(delivered.sid)).toEqual([{ event_key: `${delivered.sid}:delivered:reconciled`, kind: "delivered", state: "pending" }]);
    expect(await webhookRows(stillSent.sid)).toEqual([{ event_key: `${stillSent.sid}:sent:reconciled`, kind: "sent", state: "ignored" }]);

    await applyPending();
    expect((await notification(delivered.id)).status).toBe("delivered");
    expect((await notification(failed.id)).status).toBe("failed");
    expect((await notification(stillSent.id)).status).toBe("sent");
    const { rows } = await database.pool.query("SELECT detail FROM herald.notification_events WHERE notification_id = $1 AND type = 'failed'", [failed.id]);
    expect(rows[0].detail).toEqual({ provider: "twilio", status: "undelivered", errorCode: "30005", reconciled: true });

    asked.length = 0;
    await task({}, helpers);
    expect(asked.filter((sid) => [delivered.sid, failed.sid, stillSent.sid].includes(sid))).toEqual([]);
  });
});
