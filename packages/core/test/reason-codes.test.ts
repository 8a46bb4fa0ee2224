import { describe, expect, it } from "vitest";
import {
  REASON_CODES,
  ReasonCodeSchema,
  describeReason,
  providerRejectedReason,
  reasonCodeKey,
  renderFailedReason,
  suppressedReason,
  unreachableReason,
} from "../src/notifications/reason-codes.ts";

describe("describeReason", () => {
  it.each([
    ["category_disabled", "opted out of this category on this channel"],
    ["quiet_hours", "deferred: quiet hours"],
    ["frequency_capped", "the category's frequency cap was reached"],
    ["credentials_outage", "deferred: the provider refused our credentials"],
    ["channel_unconfigured", "no provider is configured for this channel"],
    ["rate_limited", "deferred: the provider's rate limit was reached"],
    ["breaker_open", "deferred: the provider's circuit breaker is open"],
    ["consent_changing", "deferred a moment: an opt-out, suppression or device change of this recipient was being written"],
    ["batch_stopped", "deferred a moment: its batch stopped before calling it (the database or its consent hold went away); no attempt spent"],
    ["max_attempts", "gave up after the maximum number of attempts"],
    ["max_age", "gave up: still failing at the maximum age"],
    ["outage_max_age", "gave up: the provider outage outlasted the maximum age"],
    ["invalid_payload", "its payload is invalid and cannot be sent"],
    ["broadcast_canceled", "its broadcast was canceled before it was sent"],
    ["replayed", "replayed by an operator from the dead-letter queue"],
    ["suppressed:hard_bounce", "address suppressed after a hard bounce"],
    ["suppressed:complaint", "address suppressed after a spam complaint"],
    ["suppressed:stop", "number suppressed after a STOP reply"],
    ["suppressed:invalid", "address suppressed as invalid"],
    ["suppressed:manual", "address suppressed by an operator"],
    ["suppressed:import", "address suppressed by an imported list"],
    ["unreachable:device", "no active device"],
    ["unreachable:email", "no email address"],
    ["unreachable:phone", "no phone number"],
    ["render_failed", "the content could not be rendered"],
    ["render_failed:data.order.total", "could not render: data.order.total is missing"],
    ["render_failed:too_large", "could not render: the rendered content is over the channel's size limit"],
    ["render_failed:header_injection", "could not render: a subject or title would contain a line break"],
    ["render_failed:template", "could not render: its template version is not available"],
    ["provider_rejected:21211", "the provider rejected it (code 21211)"],
    ["provider_rejected:messaging.invalid-argument", "the provider rejected it (code messaging.invalid-argument)"],
  ])("describes %s", (code, words) => {
    expect(describeReason(code)).toBe(words);
  });

  it("says so for a code it does not know, instead of throwing on an old row", () => {
    expect(describeReason("push_disabled")).toBe('unknown reason code "push_disabled"');
  });
});

describe("REASON_CODES", () => {
  it("says which gate produced each code and where it leaves the notification", () => {
    expect(REASON_CODES.category_disabled).toMatchObject({ gate: "preference", settles: "skipped" });
    expect(REASON_CODES.quiet_hours).toMatchObject({ gate: "quiet_hours", settles: "deferred" });
    expect(REASON_CODES["suppressed:<reason>"]).toMatchObject({ gate: "suppression", settles: "skipped" });
    expect(REASON_CODES["provider_rejected:<code>"]).toMatchObject({ gate: "provider", settles: "dead" });
    expect(REASON_CODES.broadcast_canceled).toMatchObject({ gate: "broadcast", settles: "canceled" });
    expect(REASON_CODES.replayed).toMatchObject({ gate: "operator", settles: "none" });
  });

  it("has 21 rows: 16 fixed codes and 5 patterns", () => {
    expect(Object.keys(REASON_CODES)).toHaveLength(21);
  });
});

describe("reasonCodeKey", () => {
  it("files a parameterised code under its pattern, for rollups", () => {
    expect(reasonCodeKey("suppressed:stop")).toBe("suppressed:<reason>");
    expect(reasonCodeKey("render_failed")).toBe("render_failed");
    expect(reasonCodeKey("render_failed:user.first_name")).toBe("render_failed:<variable>");
    expect(reasonCodeKey("max_age")).toBe("max_age");
    expect(reasonCodeKey("nope")).toBeNull();
  });
});

describe("ReasonCodeSchema", () => {
  it("accepts fixed and parameterised codes", () => {
    for (const code of ["quiet_hours", "suppressed:import", "unreachable:phone", "render_failed", "render_failed:data.a.b", "provider_rejected:21610"]) {
      expect(ReasonCodeSchema.safeParse(code).success).toBe(true);
    }
  });

  it.each([
    ["an unknown code", "push_disabled", '"push_disabled" is not a reason code'],
    ["an empty string", "", '"" is not a reason code'],
    ["a fixed code with a parameter", "quiet_hours:22", '"quiet_hours:22" is not a reason code'],
    [
      "an unknown suppression reason",
      "suppressed:unsubscribe",
      '"suppressed:unsubscribe" names an unknown suppression reason "unsubscribe": use hard_bounce, complaint, stop, invalid, manual, import',
    ],
    ["an unknown address kind", "unreachable:fax", '"unreachable:fax" names an unknown address kind "fax": use device, email, phone'],
    ["a suppression without its reason", "suppressed", '"suppressed" is not a reason code'],
    [
      "a variable that is not a path",
      "render_failed:data..total",
      '"render_failed:data..total" names "data..total", which is not a variable path like data.order.total',
    ],
    [
      "a provider code with a space",
      "provider_rejected:bad code",
      '"provider_rejected:bad code" names "bad code", which is not a provider code (1 to 64 letters, digits, "_", "." or "-")',
    ],
    [
      "an empty provider code",
      "provider_rejected:",
      '"provider_rejected:" names "", which is not a provider code (1 to 64 letters, digits, "_", "." or "-")',
    ],
  ])("rejects %s", (_label, code, message) => {
    expect(ReasonCodeSchema.safeParse(code).error?.issues[0]?.message).toBe(message);
  });

  it("rejects a provider code longer than 64 characters", () => {
    expect(ReasonCodeSchema.safeParse(`provider_rejected:${"x".repeat(65)}`).success).toBe(false);
    expect(ReasonCodeSchema.safeParse(`provider_rejected:${"x".repeat(64)}`).success).toBe(true);
  });

  it("rejects what is not a string", () => {
    expect(ReasonCodeSchema.safeParse(42).error?.issues[0]?.message).toBe("must be a reason code string");
  });
});

describe("reason code helpers", () => {
  it("build the parameterised codes", () => {
    expect(suppressedReason("complaint")).toBe("suppressed:complaint");
    expect(unreachableReason("device")).toBe("unreachable:device");
    expect(renderFailedReason()).toBe("render_failed");
    expect(renderFailedReason("data.order.total")).toBe("render_failed:data.order.total");
    expect(providerRejectedReason(21614)).toBe("provider_rejected:21614");
    expect(providerRejectedReason("unregistered")).toBe("provider_rejected:unregistered");
  });

  it("refuse a parameter the schema would reject", () => {
    expect(() => providerRejectedReason("no spaces")).toThrow('"no spaces" is not a provider code');
    expect(() => renderFailedReason("{{ x }}")).toThrow('"{{ x }}" is not a variable path like data.order.total');
  });
});
