import type { Channel, RenderedChannel } from "@herald/core";
import type { TestDestinations } from "@herald/db";
import { AppError } from "../errors.ts";
import type { OutboundMessage } from "../providers/provider.ts";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import { sendTestMessage, type TestSendAnswer } from "../providers/send-test-message.ts";

/** The member's own address for a channel; a clear refusal when they have not set one. */
export function testAddress(channel: Channel, to: TestDestinations): string {
  if (channel === "email") return to.email;
  const address = channel === "sms" ? to.phone : to.pushToken;
  if (!address) {
    throw new AppError("BAD_REQUEST", `Set your ${channel === "sms" ? "test phone number" : "test push token"} first: a test goes only to your own ${channel === "sms" ? "phone" : "device"}`);
  }
  return address;
}

/** One rendered test message, marked as a test in the subject so nobody mistakes it for the real send. */
export function testMessage<C extends Channel>(channel: C, rendered: RenderedChannel[C], address: string, label: string): OutboundMessage {
  const base = { notificationId: `test-${Date.now()}`, channel, lane: "critical" as const, to: address, data: { notification_id: "test", template: label } };
  if (channel === "email") {
    const r = rendered as RenderedChannel["email"];
    return { ...base, subject: `[Test] ${r.subject}`, body: r.text, html: r.html };
  }
  if (channel === "push") {
    const r = rendered as RenderedChannel["push"];
    return {
      ...base,
      tokens: [address],
      title: r.title,
      body: r.body,
      data: { ...r.data, ...base.data },
      ...(r.imageUrl ? { imageUrl: r.imageUrl } : {}),
      ...(r.deepLink ? { deepLink: r.deepLink } : {}),
    };
  }
  return { ...base, body: (rendered as RenderedChannel["sms"]).body };
}

/** Sends through the channel's primary provider; a clear refusal when no provider serves it. */
export async function sendTemplateTest(providers: ProviderRegistry, message: OutboundMessage): Promise<TestSendAnswer> {
  const provider = providers.route(message.channel)?.primary;
  if (!provider) throw new AppError("NOT_FOUND", `No provider serves ${message.channel}: configure one in Settings → Providers`);
  return sendTestMessage(provider, message);
}
