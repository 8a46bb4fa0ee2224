import { describe, expect, it } from "vitest";
import { SANDBOX_IDENTITIES, sandboxScript } from "../src/sandbox/sandbox-identities.ts";

describe("sandboxScript for email", () => {
  it.each([["success@simulator.amazonses.com"], ["ada@example.com"]])("accepts and delivers %s", (address) => {
    expect(sandboxScript("email", address)).toEqual({ immediate: { kind: "sent" }, later: [{ event: "delivered" }] });
  });

  it("bounces bounce@ permanently and suppresses it", () => {
    expect(sandboxScript("email", "bounce@simulator.amazonses.com")).toEqual({
      immediate: { kind: "sent" },
      later: [{ event: "bounced", detail: { bounceType: "Permanent", bounceSubType: "General" } }],
      suppress: "hard_bounce",
    });
  });

  it("delivers ooto@ and then auto-replies", () => {
    expect(sandboxScript("email", "ooto@simulator.amazonses.com")).toEqual({
      immediate: { kind: "sent" },
      later: [{ event: "delivered" }, { event: "auto_reply" }],
    });
  });

  it("delivers complaint@, then complains and suppresses it", () => {
    expect(sandboxScript("email", "complaint@simulator.amazonses.com")).toEqual({
      immediate: { kind: "sent" },
      later: [{ event: "delivered" }, { event: "complaint", detail: { complaintFeedbackType: "abuse" } }],
      suppress: "complaint",
    });
  });

  it("bounces suppressionlist@ as on the account suppression list", () => {
    expect(sandboxScript("email", "suppressionlist@simulator.amazonses.com")).toEqual({
      immediate: { kind: "sent" },
      later: [{ event: "bounced", detail: { bounceType: "Permanent", bounceSubType: "OnAccountSuppressionList" } }],
      suppress: "hard_bounce",
    });
  });

  it("keeps a simulator mailbox's behaviour under a +label, as SES does, and only on the simulator's domain", () => {
    expect(sandboxScript("email", "Bounce+user42@simulator.amazonses.com").suppress).toBe("hard_bounce");
    expect(sandboxScript("email", "complaint+user7@simulator.amazonses.com").later.map((e) => e.event)).toEqual(["delivered", "complaint"]);
    expect(sandboxScript("email", "bounce+user42@example.com")).toEqual({ immediate: { kind: "sent" }, later: [{ event: "delivered" }] });
  });

  it("matches addresses case-insensitively", () => {
    expect(sandboxScript("email", "Bounce@Simulator.AmazonSES.com").suppress).toBe("hard_bounce");
  });

  it("returns a fresh script each time", () => {
    sandboxScript("email", "ooto@simulator.amazonses.com").later.pop();
    expect(sandboxScript("email", "ooto@simulator.amazonses.com").later).toHaveLength(2);
  });
});

describe("sandboxScript for sms", () => {
  it.each([
    ["+15005550001", "21211"],
    ["+15005550002", "21612"],
    ["+15005550003", "21408"],
    ["+15005550009", "21614"],
  ])("rejects %s with %s", (phone, code) => {
    expect(sandboxScript("sms", phone)).toEqual({
      immediate: { kind: "dead", reason: `provider_rejected:${code}`, providerCode: code },
      later: [],
    });
  });

  it("rejects +15005550004 with 21610 and suppresses it, as after a STOP reply", () => {
    expect(sandboxScript("sms", "+15005550004")).toEqual({
      immediate: { kind: "dead", reason: "provider_rejected:21610", providerCode: "21610" },
      later: [],
      suppress: "stop",
    });
  });

  it("accepts and delivers any other E.164 number", () => {
    expect(sandboxScript("sms", "+4915112345678")).toEqual({ immediate: { kind: "sent" }, later: [{ event: "delivered" }] });
  });

  it("rejects what is not a phone number as invalid", () => {
    expect(sandboxScript("sms", "0151 123").immediate).toEqual({ kind: "dead", reason: "provider_rejected:21211", providerCode: "21211" });
  });
});

describe("sandboxScript for push", () => {
  it("rejects an invalid- token as unregistered and deactivates it", () => {
    expect(sandboxScript("push", "invalid-abc")).toEqual({
      immediate: { kind: "dead", reason: "provider_rejected:unregistered", providerCode: "unregistered" },
      later: [],
      deactivateToken: "unregistered",
    });
  });

  it("fails an unavailable- token transiently", () => {
    expect(sandboxScript("push", "unavailable-abc")).toEqual({ immediate: { kind: "retry", reason: "unavailable" }, later: [] });
  });

  it("accepts and delivers any other token", () => {
    expect(sandboxScript("push", "fcm-token-123")).toEqual({ immediate: { kind: "sent" }, later: [{ event: "delivered" }] });
  });
});

describe("SANDBOX_IDENTITIES", () => {
  it("lists the twelve special addresses and prefixes", () => {
    expect(Object.keys(SANDBOX_IDENTITIES)).toEqual([
      "success@simulator.amazonses.com",
      "bounce@simulator.amazonses.com",
      "ooto@simulator.amazonses.com",
      "complaint@simulator.amazonses.com",
      "suppressionlist@simulator.amazonses.com",
      "+15005550001",
      "+15005550002",
      "+15005550003",
      "+15005550004",
      "+15005550009",
      "invalid-*",
      "unavailable-*",
    ]);
  });
});
