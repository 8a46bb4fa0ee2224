import twilio from "twilio";
import { describe, expect, it } from "vitest";
import {
  TWILIO_MESSAGE_STATUSES,
  twilioFormParams,
  twilioInboundCommand,
  twilioStatusCallback,
  twilioStatusEvents,
} from "../src/providers/twilio/twilio-status-events.ts";
import { fixture } from "./support/recording-server.ts";

const now = new Date("2026-12-01T12:00:00Z");
const SID = "SM1342fe1b2c904d1ab04f0fc7a58abca9";
const form = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe("twilioStatusEvents: MessageStatus → Herald", () => {
  it("delivered (fixture) → delivered", () => {
    expect(twilioStatusEvents(fixture("twilio-status-callback-delivered.form"), now)).toEqual([
      { providerMessageId: SID, kind: "delivered", at: now, detail: { provider: "twilio", status: "delivered" }, source: "twilio" },
    ]);
  });

  it("undelivered (fixture, ErrorCode 30003) → failed with the error code", () => {
    expect(twilioStatusEvents(fixture("twilio-status-callback-undelivered.form"), now)).toEqual([
      {
        providerMessageId: SID,
        kind: "failed",
        at: now,
        detail: { provider: "twilio", status: "undelivered", errorCode: "30003" },
        source: "twilio",
      },
    ]);
  });

  it.each([
    ["accepted", null],
    ["queued", null],
    ["sending", null],
    ["sent", null],
    ["delivered", "delivered"],
    ["undelivered", "failed"],
    ["failed", "failed"],
    ["read", "read"],
    ["canceled", null],
    ["scheduled", null],
    ["partially_delivered", null],
    ["some_future_status", null],
  ])("%s → %s", (status, kind) => {
    const events = twilioStatusEvents(form({ MessageSid: SID, MessageStatus: status }), now);
    expect(events.map((e) => e.kind)).toEqual(kind ? [kind] : []);
  });

  it("covers every status in the fixture's lifecycle", () => {
    const documented = ["accepted", "queued", "sending", "sent", "delivered", "undelivered", "failed", "read", "canceled"];
    for (const status of documented) expect(TWILIO_MESSAGE_STATUSES).toContain(status);
  });

  it("a failed callback with 21610 suppresses the number for stop", () => {
    const [event] = twilioStatusEvents(form({ MessageSid: SID, MessageStatus: "failed", ErrorCode: "21610" }), now);
    expect(event).toMatchObject({ kind: "failed", suppress: "stop", detail: { errorCode: "21610" } });
  });

  it("failed without an ErrorCode keeps errorCode null", () => {
    expect(twilioStatusEvents(form({ MessageSid: SID, MessageStatus: "failed" }), now)[0]!.detail).toEqual({
      provider: "twilio",
      status: "failed",
      errorCode: null,
    });
  });

  it("anything else is no event: a bad sid, no status, a repeated MessageStatus, garbage", () => {
    expect(twilioStatusEvents(form({ MessageSid: "SMnot-a-sid", MessageStatus: "delivered" }), now)).toEqual([]);
    expect(twilioStatusEvents(form({ MessageSid: SID, Body: "hi" }), now)).toEqual([]);
    expect(twilioStatusEvents(`MessageSid=${SID}&MessageStatus=delivered&MessageStatus=failed`, now)).toEqual([]);
    expect(twilioStatusEvents("%%%", now)).toEqual([]);
    expect(twilioStatusCallback("")).toBeNull();
  });
});

describe("twilioFormParams: what Twilio signs", () => {
  it("reproduces the fixture's worked example 2 (undelivered) with validateRequest", () => {
    const url = "https://notify.example.com/webhooks/twilio/status?d=dlv_01HZX3";
    const params = twilioFormParams(fixture("twilio-status-callback-undelivered.form"));
    expect(twilio.validateRequest("test_auth_token_0123456789abcdef", "F2iY2ZfkygStA4jj/Rib+vAmUhU=", url, params)).toBe(true);
    expect(twilio.validateRequest("test_auth_token_0123456789abcdef", "F2iY2ZfkygStA4jj/Rib+vAmUhU=", url.replace("https", "http"), params)).toBe(false);
    expect(
      twilio.validateRequest("test_auth_token_0123456789abcdef", "uauY6pr1w1F4Kk0iHnn8dKgs77U=", url, twilioFormParams(fixture("twilio-status-callback-delivered.form"))),
    ).toBe(true);
  });

  it("keeps repeated parameters as arrays and decodes + and %2B", () => {
    expect(twilioFormParams("A=1&B=x+y&A=2&To=%2B1555")).toEqual({ A: ["1", "2"], B: "x y", To: "+1555" });
  });
});

describe("twilioInboundCommand", () => {
  const inbound = (extra: Record<string, string>) =>
    form({ AccountSid: "ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", MessageSid: SID, SmsStatus: "received", From: "+15558675310", To: "+15017250604", ...extra });

  it.each(["STOP", "stop", " Stop ", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"])("%j → stop", (body) => {
    expect(twilioInboundCommand(inbound({ Body: body }))).toEqual({ from: "+15558675310", command: "stop", messageSid: SID });
  });

  it.each(["START", "yes", "UNSTOP"])("%j → start", (body) => {
    expect(twilioInboundCommand(inbound({ Body: body }))).toMatchObject({ command: "start" });
  });

  it("OptOutType from Advanced Opt-Out wins over the body (custom keywords)", () => {
    expect(twilioInboundCommand(inbound({ Body: "arrêt", OptOutType: "STOP" }))).toMatchObject({ command: "stop" });
    expect(twilioInboundCommand(inbound({ Body: "STOP", OptOutType: "HELP" }))).toBeNull();
  });

  it("reads an inbound message that carries MessageStatus=received; such a message is never a status callback", () => {
    expect(twilioInboundCommand(inbound({ Body: "STOP", MessageStatus: "received" }))).toMatchObject({ command: "stop" });
    expect(twilioStatusCallback(inbound({ Body: "hello", MessageStatus: "received" }))).toBeNull();
  });

  it("is null for an ordinary reply, a sentence containing stop, or a status callback", () => {
    expect(twilioInboundCommand(inbound({ Body: "thanks!" }))).toBeNull();
    expect(twilioInboundCommand(inbound({ Body: "please stop texting me" }))).toBeNull();
    expect(twilioInboundCommand(fixture("twilio-status-callback-delivered.form"))).toBeNull();
  });
});
