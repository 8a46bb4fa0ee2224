import { describe, expect, it } from "vitest";
import { eventually, rest } from "./support/rest.ts";
import { useTestServer } from "./support/test-server.ts";

describe("an event from HTTP to a sandbox message and its simulated delivery", () => {
  const server = useTestServer({ withWorkers: true, env: { HERALD_SANDBOX_DELIVERY_DELAY_MS: "50" } });

  it("sends on every channel, records each step, and takes the delivery back through the webhook path", async () => {
    const admin = await server.apiKey("admin");
    expect((await rest(server.url, "PUT", "/categories/orders", admin, { label: "Orders" })).status).toBe(200);
    const type = await rest(server.url, "PUT", "/notification-types/order.paid", admin, {
      channels: [
        { channel: "email", category: "orders", content: { subject: "Order {{ data.orderId }} paid", body: "Thanks, {{ user.name }}" } },
        { channel: "sms", category: "orders", lane: "critical", content: { body: "Paid: {{ data.orderId }}" } },
        { channel: "push", category: "orders", content: { title: "Paid", body: "Order {{ data.orderId }}" } },
      ],
    });
    expect(type.status).toBe(201);

    const events = await server.apiKey("events");
    await rest(server.url, "PUT", "/users/u-42", events, {
      email: "ada@example.com",
      phone: "+4915112345678",
      attributes: { name: "Ada" },
    });
    await rest(server.url, "POST", "/users/u-42/devices", events, { token: "device-token-1", platform: "android" });

    const posted = await rest(server.url, "POST", "/events", events, { eventId: "order-8841-paid", type: "order.paid", userId: "u-42", data: { orderId: 8841 } });
    expect(posted.status).toBe(202);
    expect(posted.body.notifications.map((n: { channel: string }) => n.channel)).toEqual(["email", "sms", "push"]);

    const read = await server.apiKey("read");
    const history = await eventually(
      () => rest(server.url, "GET", "/users/u-42/notifications", read),
      (r) => r.body.items.length === 3 && r.body.items.every((n: { status: string }) => n.status === "delivered"),
      "three delivered notifications",
    );
    const email = history.body.items.find((n: { channel: string }) => n.channel === "email");
    expect(email).toMatchObject({ eventId: "order-8841-paid", status: "delivered", dispatchState: "done", attempts: 1, provider: "sandbox-email" });
    expect(email.events.map((e: { type: string }) => e.type)).toEqual(["created", "attempt", "sent", "delivered"]);
    expect(Date.parse(email.sentAt)).toBeLessThanOrEqual(Date.parse(email.deliveredAt));

    const outbox = await rest(server.url, "GET", "/sandbox/messages?to=ada@example.com", read);
    expect(outbox.body.items).toHaveLength(1);
    expect(outbox.body.items[0]).toMatchObject({ channel: "email", subject: "Order 8841 paid", body: "Thanks, Ada", notificationId: email.id });
    const sms = await rest(server.url, "GET", "/sandbox/messages?channel=sms", read);
    expect(sms.body.items[0]).toMatchObject({ to: "+4915112345678", body: "Paid: 8841" });
    const push = await rest(server.url, "GET", "/sandbox/messages?channel=push", read);
    expect(push.body.items[0].data).toMatchObject({ notification_id: expect.any(String), type: "order.paid" });

    const replay = await rest(server.url, "POST", "/events", events, { eventId: "order-8841-paid", type: "order.paid", userId: "u-42", data: { orderId: 8841 } });
    expect(replay.status).toBe(200);
    // The first call's notifications, with their status as it is now.
    const strip = (b: { eventId: string; notifications: Array<{ id: string; channel: string }> }) => ({
      eventId: b.eventId,
      notifications: b.notifications.map(({ id, channel }) => ({ id, channel })),
    });
    expect(strip(replay.body)).toEqual(strip(posted.body));
    expect(replay.body.notifications.map((n: { status: string }) => n.status)).toEqual(["delivered", "delivered", "delivered"]);
  });
});
