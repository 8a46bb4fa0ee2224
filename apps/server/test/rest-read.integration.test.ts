import { beforeAll, describe, expect, it } from "vitest";
import { eventually, rest } from "./support/rest.ts";
import { useTestServer } from "./support/test-server.ts";

// The read routes (docs/api.md): a user's notification history, one notification, and the
// sandbox's outbox.

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe("notification history", () => {
  // No workers: every notification stays pending and queued, so the answers are exact.
  const server = useTestServer();
  let read: string;
  let created: string[];

  beforeAll(async () => {
    const admin = await server.apiKey("admin");
    await rest(server.url, "PUT", "/categories/orders", admin, { label: "Orders" });
    await rest(server.url, "PUT", "/notification-types/order.paid", admin, {
      channels: [{ channel: "push", category: "orders", lane: "critical", content: { title: "Paid", body: "Order {{ data.orderId }}" } }],
    });
    const events = await server.apiKey("events");
    // Three notifications created in one statement (one created_at) and two after them.
    const batch = await rest(server.url, "POST", "/events/batch", events, {
      events: [1, 2, 3].map((n) => ({ eventId: `order-${n}`, type: "order.paid", userId: "h-1", data: { orderId: n } })),
    });
    created = batch.body.results.map((r: { notifications: Array<{ id: string }> }) => r.notifications[0]!.id);
    for (const n of [4, 5]) {
      const posted = await rest(server.url, "POST", "/events", events, { eventId: `order-${n}`, type: "order.paid", userId: "h-1", data: { orderId: n } });
      created.push(posted.body.notifications[0].id);
    }
    await rest(server.url, "POST", "/events", events, { eventId: "order-6", type: "order.paid", userId: "someone-else" });
    read = await server.apiKey("read");
  });

  it("lists a user's notifications newest first with their event log", async () => {
    const page = await rest(server.url, "GET", "/users/h-1/notifications", read);
    expect(page.status).toBe(200);
    expect(page.body.nextCursor).toBeNull();
    expect(page.body.items.map((n: { id: string }) => n.id)).toEqual([...created].sort((a, b) => Number(b) - Number(a)));
    expect(page.body.items.at(-1)).toEqual({
      id: created[0],
      eventId: "order-1",
      userId: "h-1",
      type: "order.paid",
      channel: "push",
      category: "orders",
      lane: "critical",
      status: "pending",
      dispatchState: "queued",
      attempts: 0,
      nextAttemptAt: ISO,
      createdAt: ISO,
      events: [{ type: "created", at: ISO, detail: { eventRef: expect.any(Number) } }],
    });
  });

  it("pages with cursor and limit, without duplicates or gaps", async () => {
    const seen: string[] = [];
    const cursors: Array<string | null> = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page = await rest(server.url, "GET", `/users/h-1/notifications${query}`, read);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((n: { id: string }) => n.id));
      cursor = page.body.nextCursor;
      cursors.push(cursor);
    } while (cursor);
    expect(cursors.map((c) => c === null)).toEqual([false, false, true]);
    expect(seen).toEqual([...created].sort((a, b) => Number(b) - Number(a)));
  });

  it("answers an empty page for a user Herald has never seen", async () => {
    const page = await rest(server.url, "GET", "/users/nobody/notifications", read);
    expect(page.body).toEqual({ items: [], nextCursor: null });
  });

  it("answers one notification by id, and 404 for an unknown or non-numeric id", async () => {
    const list = await rest(server.url, "GET", "/users/h-1/notifications", read);
    const one = await rest(server.url, "GET", `/notifications/${created[3]}`, read);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(list.body.items.find((n: { id: string }) => n.id === created[3]));

    for (const id of ["999999999", "abc", "1.5", "-1", "99999999999999999999999"]) {
      const missing = await rest(server.url, "GET", `/notifications/${id}`, read);
      expect(missing.status, id).toBe(404);
      expect(missing.body).toEqual({ error: { code: "not_found", message: `There is no notification ${id}` } });
    }
  });

  it("refuses a limit out of range and a cursor it did not hand out with 400 naming them", async () => {
    for (const limit of ["0", "101", "abc"]) {
      const refused = await rest(server.url, "GET", `/users/h-1/notifications?limit=${limit}`, read);
      expect(refused.status, limit).toBe(400);
      expect(refused.body.error.details.fields[0].path).toBe("limit");
    }
    // Not silently "from the start": a pager fed a broken cursor would loop forever.
    for (const cursor of ["garbage", Buffer.from("1|x").toString("base64url"), "x".repeat(201)]) {
      const refused = await rest(server.url, "GET", `/users/h-1/notifications?cursor=${cursor}`, read);
      expect(refused.status, cursor).toBe(400);
      expect(refused.body.error.details.fields[0].path).toBe("cursor");
    }
  });
});

describe("sandbox outbox", () => {
  const server = useTestServer({ withWorkers: true, env: { HERALD_SANDBOX_DELIVERY_DELAY_MS: "50" } });

  it("lists what the sandbox sent, filtered by recipient and channel", async () => {
    const admin = await server.apiKey("admin");
    await rest(server.url, "PUT", "/categories/orders", admin, { label: "Orders" });
    await rest(server.url, "PUT", "/notification-types/order.shipped", admin, {
      channels: [
        { channel: "email", category: "orders", content: { subject: "Shipped {{ data.orderId }}", body: "Hi {{ user.name }}" } },
        { channel: "sms", category: "orders", content: { body: "Shipped {{ data.orderId }}" } },
      ],
    });
    const events = await server.apiKey("events");
    for (const [id, email, phone] of [
      ["s-1", "ada@example.com", "+4915100000001"],
      ["s-2", "bob@example.com", "+4915100000002"],
    ] as const) {
      await rest(server.url, "PUT", `/users/${id}`, events, { email, phone, attributes: { name: id } });
      expect((await rest(server.url, "POST", "/events", events, { eventId: `ship-${id}`, type: "order.shipped", userId: id, data: { orderId: 7 } })).status).toBe(202);
    }

    const read = await server.apiKey("read");
    const all = await eventually(
      () => rest(server.url, "GET", "/sandbox/messages", read),
      (r) => r.body.items.length === 4,
      "four sandbox messages",
    );
    expect(all.status).toBe(200);

    // headers and data are the provider's own (they may change with it); the rest is the contract.
    const contract = ["id", "notificationId", "channel", "to", "subject", "title", "body", "headers", "data", "at"];
    for (const item of all.body.items) expect(contract).toEqual(expect.arrayContaining(Object.keys(item)));

    const ada = await rest(server.url, "GET", "/sandbox/messages?to=ada@example.com", read);
    expect(ada.body.items).toHaveLength(1);
    expect(ada.body.items[0]).toMatchObject({ id: expect.any(String), notificationId: expect.any(String), channel: "email", to: "ada@example.com", subject: "Shipped 7", body: "Hi s-1", at: ISO });
    const sms = await rest(server.url, "GET", "/sandbox/messages?channel=sms", read);
    expect(sms.body.items.map((m: { to: string }) => m.to).sort()).toEqual(["+4915100000001", "+4915100000002"]);
    expect(sms.body.items[0]).toMatchObject({ channel: "sms", body: "Shipped 7", at: ISO });
    expect(sms.body.items[0].subject).toBeUndefined();

    const both = await rest(server.url, "GET", `/sandbox/messages?to=${encodeURIComponent("+4915100000002")}&channel=sms`, read);
    expect(both.body.items).toHaveLength(1);
    const none = await rest(server.url, "GET", "/sandbox/messages?to=bob@example.com&channel=sms", read);
    expect(none.body.items).toEqual([]);
    const limited = await rest(server.url, "GET", "/sandbox/messages?limit=1", read);
    expect(limited.body.items).toEqual([all.body.items[0]]);

    const fax = await rest(server.url, "GET", "/sandbox/messages?channel=fax", read);
    expect(fax.status).toBe(400);
    expect(fax.body.error).toMatchObject({ code: "invalid_request", details: { fields: [{ path: "channel", message: '"fax" is not a channel: use push, email or sms' }] } });
  });
});
