import { beforeAll, describe, expect, it } from "vitest";
import { rest } from "./support/rest.ts";
import { countRows, withoutWrites } from "./support/table-snapshot.ts";
import { useTestServer } from "./support/test-server.ts";

// The REST contract of docs/api.md, route by route: events, batches, categories and
// notification types. Users and their settings are in rest-users, reads in rest-read, refusals
// in rest-bad-input.

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const ID = expect.stringMatching(/^\d+$/);

describe("events", () => {
  const server = useTestServer();
  let events: string;

  beforeAll(async () => {
    const admin = await server.apiKey("admin");
    expect((await rest(server.url, "PUT", "/categories/orders", admin, { label: "Orders" })).status).toBe(200);
    const type = await rest(server.url, "PUT", "/notification-types/order.paid", admin, {
      channels: [
        { channel: "email", category: "orders", content: { subject: "Order {{ data.orderId }}", body: "Paid" } },
        { channel: "push", category: "orders", content: { title: "Paid", body: "Order {{ data.orderId }}" } },
      ],
    });
    expect(type.status).toBe(201);
    events = await server.apiKey("events");
  });

  it("accepts an event with 202 and lists one pending notification per channel", async () => {
    const posted = await rest(server.url, "POST", "/events", events, {
      eventId: "order-1-paid",
      type: "order.paid",
      userId: "u-1",
      occurredAt: "2026-11-30T12:00:00+01:00",
      data: { orderId: 1, items: [{ sku: "A-1" }] },
    });
    expect(posted.status).toBe(202);
    expect(posted.body).toEqual({
      eventId: "order-1-paid",
      notifications: [
        { id: ID, channel: "email", status: "pending" },
        { id: ID, channel: "push", status: "pending" },
      ],
    });
    const { rows } = await server.database.pool.query(
      `SELECT e.event_id, e.type, e.occurred_at, u.external_id FROM herald.events e JOIN herald.users u ON u.id = e.user_id WHERE e.event_id = 'order-1-paid'`,
    );
    expect(rows).toEqual([{ event_id: "order-1-paid", type: "order.paid", occurred_at: new Date("2026-11-30T11:00:00Z"), external_id: "u-1" }]);
  });

  it("answers a replay with 200 and the same notifications, writing nothing", async () => {
    const body = { eventId: "order-2-paid", type: "order.paid", userId: "u-1", data: { orderId: 2 } };
    const first = await rest(server.url, "POST", "/events", events, body);
    expect(first.status).toBe(202);
    const replay = await withoutWrites(server.database.pool, () => rest(server.url, "POST", "/events", events, body));
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
  });

  it("answers 409 event_conflict when the same event comes back with another payload", async () => {
    const body = { eventId: "order-3-paid", type: "order.paid", userId: "u-1", data: { orderId: 3 } };
    expect((await rest(server.url, "POST", "/events", events, body)).status).toBe(202);
    for (const changed of [{ ...body, data: { orderId: 4 } }, { ...body, occurredAt: "2026-01-01T00:00:00Z" }]) {
      const conflict = await withoutWrites(server.database.pool, () => rest(server.url, "POST", "/events", events, changed));
      expect(conflict.status).toBe(409);
      expect(conflict.body).toEqual({
        error: { code: "event_conflict", message: 'Event "order-3-paid" for user "u-1" was already received with another payload' },
      });
    }
    // The same eventId for another user is another event.
    expect((await rest(server.url, "POST", "/events", events, { ...body, userId: "u-2" })).status).toBe(202);
  });

  it("lets an admin key send events too (scopes nest)", async () => {
    const admin = await server.apiKey("admin");
    const read = await server.apiKey("read");
    expect((await rest(server.url, "POST", "/events", admin, { eventId: "by-admin", type: "order.paid", userId: "u-1" })).status).toBe(202);
    expect((await rest(server.url, "POST", "/events", read, { eventId: "by-read", type: "order.paid", userId: "u-1" })).status).toBe(202);
  });

  it("answers a batch in input order, one result per event, and never lets a bad event block the others", async () => {
    await rest(server.url, "POST", "/events", events, { eventId: "b-earlier", type: "order.paid", userId: "u-3", data: { orderId: 10 } });
    const eventsBefore = await countRows(server.database.pool, "events");
    const batch = await rest(server.url, "POST", "/events/batch", events, {
      events: [
        { eventId: "b-1", type: "order.paid", userId: "u-3", data: { orderId: 11 } },
        { eventId: "b-2", type: "no.such.type", userId: "u-3" },
        { eventId: "b-3", type: "order.paid" },
        { eventId: "b-1", type: "order.paid", userId: "u-3", data: { orderId: 11 } },
        { eventId: "b-4", type: "order.paid", userId: "u-3", data: { note: "a\u0000b" } },
        { eventId: "b-earlier", type: "order.paid", userId: "u-3", data: { orderId: 10 } },
        { eventId: "b-earlier", type: "order.paid", userId: "u-3", data: { orderId: 99 } },
        { eventId: "b-1", type: "order.paid", userId: "u-3", data: { orderId: 12 } },
        42,
      ],
    });
    expect(batch.status).toBe(200);
    const [created, unknownType, invalid, duplicate, nul, replay, conflict, conflictInBatch, notAnObject] = batch.body.results;
    expect(batch.body.results).toHaveLength(9);
    expect(created).toEqual({ eventId: "b-1", status: "created", notifications: [expect.objectContaining({ channel: "email" }), expect.objectContaining({ channel: "push" })] });
    expect(unknownType).toEqual({ eventId: "b-2", status: "unknown_type", error: expect.stringContaining('There is no notification type "no.such.type"') });
    expect(invalid).toEqual({ eventId: "b-3", status: "invalid", error: expect.stringContaining("userId:") });
    expect(duplicate).toEqual({ eventId: "b-1", status: "replayed", notifications: created.notifications });
    expect(nul).toEqual({ eventId: "b-4", status: "invalid", error: "data.note: must not contain NUL or other control characters" });
    expect(replay).toEqual({ eventId: "b-earlier", status: "replayed", notifications: [expect.objectContaining({ channel: "email" }), expect.objectContaining({ channel: "push" })] });
    expect(conflict).toEqual({ eventId: "b-earlier", status: "conflict", error: "already received with another payload" });
    expect(conflictInBatch).toEqual({ eventId: "b-1", status: "conflict", error: "already received with another payload" });
    expect(notAnObject).toEqual({ eventId: null, status: "invalid", error: expect.stringContaining("expected object") });
    // Only b-1 was new.
    expect(await countRows(server.database.pool, "events")).toBe(eventsBefore + 1);
  });

  it("refuses a malformed batch envelope as a whole, writing nothing", async () => {
    const pool = server.database.pool;
    const notAList = await withoutWrites(pool, () => rest(server.url, "POST", "/events/batch", events, { events: "nope" }));
    expect(notAList.status).toBe(400);
    expect(notAList.body.error).toMatchObject({ code: "invalid_request", details: { fields: [{ path: "events", message: expect.any(String) }] } });

    const empty = await withoutWrites(pool, () => rest(server.url, "POST", "/events/batch", events, { events: [] }));
    expect(empty.status).toBe(400);

    const bare = await withoutWrites(pool, () => rest(server.url, "POST", "/events/batch", events, [{ eventId: "x", type: "order.paid", userId: "u" }]));
    expect(bare.status).toBe(400);
    expect(bare.body.error.code).toBe("invalid_request");

    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ eventId: `many-${i}`, type: "order.paid", userId: "u-4" }));
    const over = await withoutWrites(pool, () => rest(server.url, "POST", "/events/batch", events, { events: tooMany }));
    expect(over.status).toBe(400);
    expect(over.body.error).toEqual({
      code: "invalid_request",
      message: "events: at most 1,000 events per batch",
      details: { fields: [{ path: "events", message: "at most 1,000 events per batch" }] },
    });

    const broken = await withoutWrites(pool, () => rest(server.url, "POST", "/events/batch", events, '{"events": [{"eventId": "x",'));
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe("malformed_json");
  });

  it("takes exactly 1,000 events in one batch", async () => {
    const thousand = Array.from({ length: 1000 }, (_, i) => ({ eventId: `k-${i}`, type: "order.paid", userId: `bulk-${i % 10}`, data: { i } }));
    const batch = await rest(server.url, "POST", "/events/batch", events, { events: thousand });
    expect(batch.status).toBe(200);
    expect(batch.body.results.map((r: { eventId: string }) => r.eventId)).toEqual(thousand.map((e) => e.eventId));
    expect(batch.body.results.every((r: { status: string; notifications: unknown[] }) => r.status === "created" && r.notifications.length === 2)).toBe(true);
  });
});

describe("categories and notification types", () => {
  const server = useTestServer();
  let admin: string;

  beforeAll(async () => {
    admin = await server.apiKey("admin");
  });

  it("creates, reads and replaces a category; an omitted channel default is true", async () => {
    const put = await rest(server.url, "PUT", "/categories/marketing", admin, {
      label: "Marketing",
      defaults: { email: false },
      aliases: ["promo", "promos"],
      tracking: { opens: true },
    });
    expect(put.status).toBe(200);
    const expected = {
      key: "marketing",
      label: "Marketing",
      mandatory: false,
      defaults: { push: true, email: false, sms: true },
      aliases: ["promo", "promos"],
      tracking: { opens: true, clicks: false },
      frequencyCap: null,
      updatedAt: ISO,
    };
    expect(put.body).toEqual({ category: expected });
    expect((await rest(server.url, "GET", "/categories/marketing", admin)).body).toEqual({ category: expected });

    const replaced = await rest(server.url, "PUT", "/categories/marketing", admin, { label: "News and offers", aliases: ["promo"] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.category).toMatchObject({ label: "News and offers", defaults: { push: true, email: true, sms: true }, aliases: ["promo"], tracking: { opens: false, clicks: false } });
    const { rows } = await server.database.pool.query("SELECT alias, category_key FROM herald.category_aliases ORDER BY alias");
    expect(rows).toEqual([{ alias: "promo", category_key: "marketing" }]);

    const security = await rest(server.url, "PUT", "/categories/security", admin, { label: "Security", mandatory: true });
    expect(security.body.category).toMatchObject({ key: "security", mandatory: true });
    const list = await rest(server.url, "GET", "/categories", admin);
    expect(list.body.categories.map((c: { key: string }) => c.key)).toEqual(["marketing", "security"]);
  });

  it("answers 404 for an unknown category and 409 alias_taken for a name another category owns, writing nothing", async () => {
    await rest(server.url, "PUT", "/categories/billing", admin, { label: "Billing", aliases: ["invoices"] });
    const missing = await rest(server.url, "GET", "/categories/nope", admin);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: "not_found", message: 'There is no category "nope"' } });

    const pool = server.database.pool;
    const takenAlias = await withoutWrites(pool, () => rest(server.url, "PUT", "/categories/receipts", admin, { label: "Receipts", aliases: ["invoices"] }));
    expect(takenAlias.status).toBe(409);
    expect(takenAlias.body).toEqual({ error: { code: "alias_taken", message: '"invoices" already names category "billing"' } });

    const aliasIsAKey = await withoutWrites(pool, () => rest(server.url, "PUT", "/categories/receipts", admin, { label: "Receipts", aliases: ["billing"] }));
    expect(aliasIsAKey.status).toBe(409);
    expect(aliasIsAKey.body.error.code).toBe("alias_taken");

    // A new category may not take a name that is already another category's alias either.
    const keyIsAnAlias = await withoutWrites(pool, () => rest(server.url, "PUT", "/categories/invoices", admin, { label: "Invoices" }));
    expect(keyIsAnAlias.status).toBe(409);
    expect(keyIsAnAlias.body).toEqual({ error: { code: "alias_taken", message: '"invoices" already names category "billing"' } });
  });

  it("creates a notification type with 201, replaces it with 200, and reads it back", async () => {
    await rest(server.url, "PUT", "/categories/orders", admin, { label: "Orders", aliases: ["order"] });
    const channels = [
      { channel: "email", category: "orders", content: { subject: "Order {{ data.order.id }}", body: "Hi {{ user.name }}", html: "<p>Hi {{ user.name }}</p>" } },
      { channel: "sms", category: "order", lane: "critical", content: { body: "Paid: {{ data.order.id }}" } },
    ];
    const created = await rest(server.url, "PUT", "/notification-types/order.paid", admin, { channels });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      type: "order.paid",
      channels: [
        { ...channels[0], lane: "bulk" },
        { ...channels[1], lane: "critical" },
      ],
      updatedAt: ISO,
    });
    const read = await rest(server.url, "GET", "/notification-types/order.paid", admin);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const replaced = await rest(server.url, "PUT", "/notification-types/order.paid", admin, {
      channels: [{ channel: "push", category: "orders", content: { title: "Paid", body: "Order {{ data.order.id }}" } }],
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.channels).toEqual([{ channel: "push", category: "orders", lane: "bulk", content: { title: "Paid", body: "Order {{ data.order.id }}" } }]);
    const list = await rest(server.url, "GET", "/notification-types", admin);
    expect(list.body.notificationTypes.map((t: { type: string }) => t.type)).toEqual(["order.paid"]);
  });

  it("refuses a notification type naming an unknown category (422), a template (422), or bad content (400), writing nothing", async () => {
    const pool = server.database.pool;
    const put = (channels: unknown[]) => withoutWrites(pool, () => rest(server.url, "PUT", "/notification-types/bad.type", admin, { channels }));

    const unknown = await put([{ channel: "push", category: "ghosts", content: { body: "Boo" } }]);
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toEqual({ code: "unknown_category", message: "Unknown category: ghosts — create it first (PUT /api/v1/categories/:key, or Settings → Categories)", details: { categories: ["ghosts"] } });

    const templated = await put([{ channel: "push", category: "orders", template: "order.paid" }]);
    expect(templated.status).toBe(422);
    expect(templated.body.error.code).toBe("template_not_found");

    const noSubject = await put([{ channel: "email", category: "orders", content: { body: "Hi" } }]);
    expect(noSubject.status).toBe(400);
    expect(noSubject.body.error).toMatchObject({ code: "invalid_request", message: "channels: an email step needs content.subject" });

    const badPlaceholder = await put([{ channel: "push", category: "orders", content: { body: "Hi {{ secrets.key }}" } }]);
    expect(badPlaceholder.status).toBe(400);
    expect(badPlaceholder.body.error.details.fields).toEqual([
      { path: "channels.0.content.body", message: '"{{ secrets.key }}" is not a placeholder: use {{ user.<field> }} or {{ data.<path> }}' },
    ]);

    const twice = await put([
      { channel: "push", category: "orders", content: { body: "a" } },
      { channel: "push", category: "orders", content: { body: "b" } },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.error.details.fields).toEqual([{ path: "channels.1.channel", message: 'channel "push" is listed twice' }]);

    const missing = await rest(server.url, "GET", "/notification-types/bad.type", admin);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
  });
});
