import { describe, expect, it } from "vitest";
import { explainVerdict, type ExplainInput } from "../src/notifications/explain-verdict.ts";

// Tuesday 1 December 2026, 23:30 in Berlin.
const NOW = new Date("2026-12-01T22:30:00Z");

function input(overrides: Partial<ExplainInput>): ExplainInput {
  return {
    channel: "email",
    lane: "bulk",
    category: "marketing",
    verdict: "send",
    reason: null,
    deferUntil: null,
    address: "ada@example.com",
    tokens: null,
    detail: { mandatory: false, defaultEnabled: true },
    provider: { kind: "ses", name: "ses-email" },
    timeZone: "Europe/Berlin",
    now: NOW,
    ...overrides,
  };
}

describe("explainVerdict", () => {
  it("says an opt-out through the unsubscribe link, with its local date, and stops there", () => {
    const explained = explainVerdict(
      input({
        verdict: "skip",
        reason: "category_disabled",
        detail: { mandatory: false, defaultEnabled: true, preference: { enabled: false, source: "unsubscribe_link", changedAt: "2026-11-02T09:15:00Z" } },
      }),
    );
    expect(explained.headline).toBe("Email: skipped — opted out of marketing email on 2026-11-02 through the unsubscribe link");
    expect(explained.outcome).toBe("skip");
    expect(explained.reason).toBe("category_disabled");
    expect(explained.steps.map((s) => s.outcome)).toEqual(["stop", "not_reached", "not_reached", "not_reached", "not_reached", "not_reached"]);
  });

  it("says a category that is off by default and never opted in to", () => {
    const explained = explainVerdict(input({ verdict: "skip", reason: "category_disabled", detail: { mandatory: false, defaultEnabled: false } }));
    expect(explained.headline).toBe("Email: skipped — marketing email is off by default and they never opted in");
  });

  it("says a mandatory category overrides an opt-out, and then sends", () => {
    const explained = explainVerdict(
      input({
        category: "security",
        detail: { mandatory: true, defaultEnabled: true, preference: { enabled: false, source: "api", changedAt: "2026-10-01T12:00:00Z" } },
      }),
    );
    expect(explained.steps[0]).toEqual({
      step: "preference",
      outcome: "pass",
      words: "security is mandatory: their opt-out of security email on 2026-10-01 through the API does not apply",
    });
    expect(explained.headline).toBe("Email: would send to ada@example.com through Amazon SES");
    expect(explained.outcome).toBe("send");
  });

  it("says a suppression with its cause, date and source", () => {
    const explained = explainVerdict(
      input({
        verdict: "skip",
        reason: "suppressed:hard_bounce",
        detail: { mandatory: false, defaultEnabled: true, suppression: { reason: "hard_bounce", source: "ses", at: "2026-11-20T08:00:00Z" } },
      }),
    );
    expect(explained.headline).toBe("Email: skipped — ada@example.com is suppressed after a hard bounce on 2026-11-20 (ses)");
    expect(explained.steps.slice(0, 2).map((s) => s.outcome)).toEqual(["pass", "stop"]);
  });

  it("says a STOP reply on SMS", () => {
    const explained = explainVerdict(
      input({
        channel: "sms",
        address: "+4915112345678",
        verdict: "skip",
        reason: "suppressed:stop",
        detail: { mandatory: false, defaultEnabled: true, suppression: { reason: "stop", source: "twilio", at: "2026-11-21T08:00:00Z" } },
      }),
    );
    expect(explained.headline).toBe("SMS: skipped — +4915112345678 is suppressed after a STOP reply on 2026-11-21 (twilio)");
  });

  it("says a missing address or device", () => {
    expect(explainVerdict(input({ verdict: "skip", reason: "unreachable:email", address: null })).headline).toBe("Email: skipped — no email address");
    expect(explainVerdict(input({ channel: "push", verdict: "skip", reason: "unreachable:device", address: null, tokens: null })).headline).toBe(
      "Push: skipped — no active device",
    );
  });

  it("says a quiet-hours deferral in the window's time zone", () => {
    const explained = explainVerdict(
      input({
        verdict: "defer",
        reason: "quiet_hours",
        deferUntil: new Date("2026-12-02T07:00:00Z"),
        detail: { mandatory: false, defaultEnabled: true, quietHours: { start: "22:00", end: "08:00", timezone: "Europe/Berlin" } },
      }),
    );
    expect(explained.headline).toBe("Email: deferred to 2026-12-02 08:00 Europe/Berlin — quiet hours (22:00–08:00)");
    expect(explained.outcome).toBe("defer");
  });

  it("leaves out the date of a deferral that ends the same local day", () => {
    const explained = explainVerdict(
      input({
        now: new Date("2026-12-01T05:00:00Z"),
        verdict: "defer",
        reason: "quiet_hours",
        deferUntil: new Date("2026-12-01T07:00:00Z"),
        detail: { quietHours: { start: "22:00", end: "08:00", timezone: "Europe/Berlin" } },
      }),
    );
    expect(explained.headline).toBe("Email: deferred to 08:00 Europe/Berlin — quiet hours (22:00–08:00)");
  });

  it("says the critical lane passes quiet hours", () => {
    const explained = explainVerdict(input({ lane: "critical", detail: { quietHours: { start: "22:00", end: "08:00", timezone: "Europe/Berlin" } } }));
    expect(explained.steps[3]).toEqual({ step: "quiet_hours", outcome: "pass", words: "the critical lane ignores quiet hours (22:00–08:00 Europe/Berlin)" });
  });

  it("says a frequency cap that skips, and one that defers", () => {
    expect(explainVerdict(input({ verdict: "skip", reason: "frequency_capped", detail: { sentInWindow: 3 } })).headline).toBe(
      "Email: skipped — the marketing frequency cap is reached (3 sent in its window)",
    );
    const deferred = explainVerdict(input({ verdict: "defer", reason: "frequency_capped", deferUntil: new Date("2026-12-02T10:00:00Z"), detail: { sentInWindow: 2 } }));
    expect(deferred.headline).toBe("Email: deferred — the marketing frequency cap is reached (2 sent in its window): deferred to 2026-12-02 11:00 Europe/Berlin");
  });

  it("says who would carry a message that passes every gate", () => {
    const sms = explainVerdict(input({ channel: "sms", address: "+4915112345678", provider: { kind: "twilio", name: "twilio-sms" } }));
    expect(sms.headline).toBe("SMS: would send to +4915112345678 through Twilio");
    expect(sms.steps.map((s) => s.outcome)).toEqual(["pass", "pass", "pass", "pass", "pass", "pass"]);
    expect(sms.steps[0]!.words).toBe("marketing SMS is on by default and they never changed it");
    const push = explainVerdict(input({ channel: "push", address: null, tokens: ["t1", "t2"], provider: { kind: null, name: "sandbox-push" } }));
    expect(push.headline).toBe("Push: would send to their 2 devices through sandbox-push");
    expect(push.steps[2]!.words).toBe("2 active devices");
  });

  it("says a message would wait when no provider serves the channel", () => {
    const explained = explainVerdict(input({ provider: null }));
    expect(explained).toMatchObject({
      outcome: "wait",
      reason: "channel_unconfigured",
      headline: "Email: waiting — no provider is configured for email: it would wait until one is",
    });
  });

  it("falls back to the catalogue's words for a reason no gate claims", () => {
    expect(explainVerdict(input({ verdict: "skip", reason: "broadcast_canceled" })).headline).toBe(
      "Email: skipped — its broadcast was canceled before it was sent",
    );
  });
});
