import { describe, expect, it } from "vitest";
import { ChannelStepSchema, NotificationTypeInputSchema, NotificationTypeKeySchema } from "../src/config/notification-types.ts";

const EMAIL_STEP = { channel: "email", category: "billing", template: "order.paid" };
const PUSH_STEP = { channel: "push", category: "billing", lane: "critical", content: { title: "Paid", body: "Order {{ data.order.id }} is paid" } };

function firstIssue(input: unknown) {
  return NotificationTypeInputSchema.safeParse(input).error?.issues[0];
}

describe("NotificationTypeKeySchema", () => {
  it("accepts keys with . : _ -", () => {
    expect(NotificationTypeKeySchema.safeParse("otp:login").success).toBe(true);
    expect(NotificationTypeKeySchema.safeParse("order.paid").success).toBe(true);
  });

  it("rejects upper case, naming the value", () => {
    expect(NotificationTypeKeySchema.safeParse("Order.Paid").error?.issues[0]?.message).toBe(
      '"Order.Paid" is not a notification type key: start with a lower-case letter, then up to 127 lower-case letters, digits, "_", ".", ":" or "-"',
    );
  });
});

describe("ChannelStepSchema", () => {
  it("puts a step on the bulk lane unless it says otherwise", () => {
    expect(ChannelStepSchema.parse(EMAIL_STEP)).toEqual({ ...EMAIL_STEP, lane: "bulk" });
    expect(ChannelStepSchema.parse(PUSH_STEP).lane).toBe("critical");
  });

  it("rejects a step with both template and content", () => {
    const issue = ChannelStepSchema.safeParse({ ...EMAIL_STEP, content: { body: "x" } }).error?.issues[0];
    expect(issue?.message).toBe("give either template or content, not both");
  });

  it("rejects a step with neither", () => {
    const issue = ChannelStepSchema.safeParse({ channel: "sms", category: "billing" }).error?.issues[0];
    expect(issue?.message).toBe("give either template or content, one of them is required");
  });

  it("rejects a bad template key and an unknown lane, naming them", () => {
    expect(ChannelStepSchema.safeParse({ ...EMAIL_STEP, template: "Order Paid" }).error?.issues[0]?.message).toBe(
      '"Order Paid" is not a template key: start with a lower-case letter, then up to 127 lower-case letters, digits, "_", "." or "-"',
    );
    expect(ChannelStepSchema.safeParse({ ...EMAIL_STEP, lane: "fast" }).error?.issues[0]?.message).toBe('"fast" is not a lane: use critical or bulk');
  });

  it("rejects inline content with an unknown placeholder root", () => {
    const issue = ChannelStepSchema.safeParse({ ...PUSH_STEP, content: { body: "{{ env.SECRET }}" } }).error?.issues[0];
    expect(issue?.message).toBe('"{{ env.SECRET }}" is not a placeholder: use {{ user.<field> }} or {{ data.<path> }}');
    expect(issue?.path).toEqual(["content", "body"]);
  });
});

describe("NotificationTypeInputSchema", () => {
  it("accepts one to three channels", () => {
    expect(NotificationTypeInputSchema.safeParse({ channels: [EMAIL_STEP, PUSH_STEP] }).success).toBe(true);
  });

  it("rejects no channels", () => {
    expect(firstIssue({ channels: [] })?.message).toBe("must list at least one channel");
  });

  it("rejects a channel listed twice, naming it", () => {
    const issue = firstIssue({ channels: [EMAIL_STEP, PUSH_STEP, { ...EMAIL_STEP, template: "order.paid.v2" }] });
    expect(issue?.message).toBe('channel "email" is listed twice');
    expect(issue?.path).toEqual(["channels", 2, "channel"]);
  });
});
