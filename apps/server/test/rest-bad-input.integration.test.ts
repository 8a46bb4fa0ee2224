import { beforeAll, describe, expect, it } from "vitest";
import { rest } from "./support/rest.ts";
import { withoutWrites } from "./support/table-snapshot.ts";
import { useTestServer } from "./support/test-server.ts";

// Bad input over real HTTP (docs/api.md): each is answered with its status and an error naming
// what was wrong, never a 500, and none of them writes or changes a row.

const EVENT = { eventId: "order-1-paid", type: "order.paid", userId: "u-1" };
const CONTROL = "must not contain NUL or other control characters";

describe("bad input", () => {
  const server = useTestServer();
  let events: string;
  let admin: string;

  beforeAll(async () => {
    admin = await server.apiKey("admin");
    await rest(server.url, "PUT", "/categories/orders", admin, { label: "Orders" });
    await rest(server.url, "PUT", "/notification-types/order.paid", admin, { channels: [{ channel: "push", category: "orders", content: { body: "Paid" } }] });
    events = await server.apiKey("events");
    // Existing rows that a refused request must leave exactly as they are.
    await rest(server.url, "PUT", "/users/u-1", events, { email: "ada@example.com", attributes: { plan: "pro" } });
    await rest(server.url, "POST", "/users/u-1/devices", events, { token: "tok-1", platform: "ios" });
    await rest(server.url, "PUT", "/users/u-1/quiet-hours", events, { start: "22:00", end: "08:00" });
  });

  /** A request that must be refused: it answers `status` and writes nothing. */
  async function refused(status: number, method: string, path: string, body?: unknown, headers?: Record<string, string>, key = events) {
    const response = await withoutWrites(server.database.pool, () => rest(server.url, method, path, key, body, headers));
    expect(response.status, `${method} ${path} ${JSON.stringify(response.body).slice(0, 300)}`).toBe(status);
    expect(response.body.error.message).not.toMatch(/\n\s+at /);
    return response.body.error as { code: string; message: string; details?: { fields: Array<{ path: string; message: string }> } };
  }

  it("answers malformed JSON with 400 malformed_json quoting the parser", async () => {
    for (const [method, path] of [
      ["POST", "/events"],
      ["PUT", "/users/u-1"],
      ["PUT", "/users/u-1/quiet-hours"],
    ]) {
      const error = await refused(400, method!, path!, '{"eventId": "a",');
      expect(error.code).toBe("malformed_json");
      expect(error.message).toMatch(/^The body is not valid JSON: .*JSON/);
    }
  });

  it("answers a wrong field type with 400 invalid_request naming the field", async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ["POST", "/events", { ...EVENT, eventId: 42 }, "eventId"],
      ["POST", "/events", { ...EVENT, userId: ["u-1"] }, "userId"],
      ["POST", "/events", { ...EVENT, data: [1, 2] }, "data"],
      ["POST", "/events", { ...EVENT, occurredAt: "yesterday" }, "occurredAt"],
      ["PUT", "/users/u-1", { email: 42 }, "email"],
      ["PUT", "/users/u-1", { attributes: { seats: { n: 1 } } }, "attributes.seats"],
      ["PUT", "/users/u-1", { attributes: ["plan"] }, "attributes"],
      ["PUT", "/users/u-1", { timezone: "Mars/Olympus_Mons" }, "timezone"],
      ["POST", "/users/u-1/devices", { token: "tok-2", platform: "blackberry" }, "platform"],
      ["POST", "/users/u-1/activities", { name: 42 }, "name"],
      ["PUT", "/users/u-1/preferences", { preferences: [{ category: "orders", channel: "push", enabled: "no" }] }, "preferences.0.enabled"],
      ["PUT", "/users/u-1/quiet-hours", { start: 2200, end: "08:00" }, "start"],
    ];
    for (const [method, path, body, field] of cases) {
      const error = await refused(400, method, path, body);
      expect(error.code).toBe("invalid_request");
      expect(error.details!.fields.map((f) => f.path), `${method} ${path} ${JSON.stringify(body)}`).toContain(field);
      expect(error.message).toContain(`${field}: `);
    }
    const unknownKey = await refused(400, "PUT", "/users/u-1", { nickname: "Ada" });
    expect(unknownKey.message).toContain('"nickname"');
    const adminCases: Array<[string, unknown, string]> = [
      ["/categories/offers", { label: 42 }, "label"],
      ["/categories/offers", { label: "Offers", defaults: { push: "yes" } }, "defaults.push"],
      ["/notification-types/offer.made", { channels: { push: true } }, "channels"],
    ];
    for (const [path, body, field] of adminCases) {
      const error = await refused(400, "PUT", path, body, undefined, admin);
      expect(error.details!.fields.map((f) => f.path)).toContain(field);
    }
  });

  it("refuses a userId or eventId over 256 characters with 400, and takes exactly 256", async () => {
    const long = "x".repeat(257);
    for (const [method, path, body, field] of [
      ["POST", "/events", { ...EVENT, eventId: long }, "eventId"],
      ["POST", "/events", { ...EVENT, userId: long }, "userId"],
      ["PUT", `/users/${long}`, { email: "a@example.com" }, "userId"],
      ["GET", `/users/${long}/preferences`, undefined, "userId"],
      ["POST", `/users/${long}/devices`, { token: "tok-9", platform: "web" }, "userId"],
      ["POST", "/users/u-1/activities", { id: long, name: "app_opened" }, "id"],
    ] as const) {
      const error = await refused(400, method, path, body);
      expect(error.details!.fields).toContainEqual({ path: field, message: expect.stringMatching(/at most 256/) });
    }
    const exact = await rest(server.url, "POST", "/events", events, { ...EVENT, eventId: "e".repeat(256), userId: "u".repeat(256) });
    expect(exact.status).toBe(202);
  });

  it("answers an unknown type with 422 unknown_type and creates no user", async () => {
    const error = await refused(422, "POST", "/events", { eventId: "e-1", type: "no.such.type", userId: "brand-new-user" });
    expect(error).toEqual({ code: "unknown_type", message: 'There is no notification type "no.such.type": create it with PUT /api/v1/notification-types/no.such.type' });
    const badKey = await refused(400, "POST", "/events", { ...EVENT, type: "Order Paid" });
    expect(badKey.details!.fields[0]!.path).toBe("type");
  });

  it("refuses a phone that is not E.164 and an email that does not parse", async () => {
    for (const phone of ["015112345678", "+49 151 12345678", "+0151123456", "+1", "4915112345678"]) {
      const error = await refused(400, "PUT", "/users/u-1", { phone });
      expect(error.details!.fields).toEqual([{ path: "phone", message: "must be an E.164 phone number such as +4915112345678" }]);
    }
    for (const email of ["ada", "ada@", "@example.com", "ada@example", "ada example@example.com", `${"a".repeat(320)}@example.com`]) {
      const error = await refused(400, "PUT", "/users/u-1", { email });
      expect(error.details!.fields[0]!.path, email).toBe("email");
    }
  });

  it("refuses an internationalised (IDN) email domain with a clean 400 and takes its punycode form", async () => {
    // zod's email check is ASCII-only: a provider may not take a UTF-8 address either, so the
    // caller sends the domain as punycode.
    const error = await refused(400, "PUT", "/users/u-1", { email: "anna@bücher.example" });
    expect(error).toEqual({ code: "invalid_request", message: "email: must be an email address", details: { fields: [{ path: "email", message: "must be an email address" }] } });
    const punycode = await rest(server.url, "PUT", "/users/idn-1", events, { email: "anna@xn--bcher-kva.example" });
    expect(punycode.status).toBe(200);
    expect(punycode.body.user.email).toBe("anna@xn--bcher-kva.example");
  });

  it("refuses NUL and other control characters in any text field with 400 naming it", async () => {
    const cases: Array<[string, string, unknown, string, string?]> = [
      ["POST", "/events", { ...EVENT, eventId: "order\u00001" }, "eventId"],
      ["POST", "/events", { ...EVENT, userId: "u\u001b[31m" }, "userId"],
      ["POST", "/events", { ...EVENT, data: { note: "a\u0000b" } }, "data.note"],
      ["POST", "/events", { ...EVENT, data: { items: [{ sku: "A\u0000" }] } }, "data.items.0.sku"],
      ["POST", "/events", { ...EVENT, data: { "k\u0000": 1 } }, "data.k\\u0000"],
      ["PUT", "/users/u-1", { attributes: { "a\u0000b": 1 } }, "attributes.a\\u0000b"],
      ["PUT", "/users/u-1", { attributes: { plan: "pro\u0000" } }, "attributes.plan"],
      ["PUT", "/users/u-1", { email: "ada\u0000@example.com" }, "email"],
      ["PUT", "/users/u%00-1", { email: "ada@example.com" }, "userId"],
      ["POST", "/users/u-1/activities", { name: "session\u001bcompleted" }, "name"],
      ["POST", "/users/u-1/activities", { name: "opened", properties: { path: ["/a", "/b\u0007"] } }, "properties.path.1"],
      ["POST", "/users/u-1/devices", { token: "tok\u0000", platform: "ios" }, "token"],
      ["DELETE", "/users/u-1/devices/tok-1%1B", undefined, "token"],
      ["PUT", "/users/u-1/preferences", { preferences: [{ category: "orders\u0000", channel: "push", enabled: false }] }, "preferences.0.category"],
      ["PUT", "/users/u-1/quiet-hours", { start: "22:00", end: "08:00", timezone: "Europe/Berlin\u0000" }, "timezone"],
      ["PUT", "/categories/offers", { label: "Offers\u001b[2J" }, "label", admin],
      ["PUT", "/notification-types/offer.made", { channels: [{ channel: "push", category: "orders", content: { body: "Hi\u0007" } }] }, "channels.0.content.body", admin],
      ["GET", "/sandbox/messages?to=a%00b", undefined, "to", admin],
    ];
    for (const [method, path, body, field, key] of cases) {
      const error = await refused(400, method, path, body, undefined, key ?? events);
      expect(error.details!.fields, `${method} ${path} ${JSON.stringify(body)}`).toEqual([{ path: field, message: expect.stringContaining("control characters") }]);
      expect(error.message).toBe(`${field}: ${error.details!.fields[0]!.message}`);
    }
    // The same NUL inside a batch spoils only its own event.
    const batch = await rest(server.url, "POST", "/events/batch", events, { events: [{ ...EVENT, eventId: "nul\u0000" }, { ...EVENT, eventId: "fine" }] });
    expect(batch.body.results.map((r: { status: string }) => r.status)).toEqual(["invalid", "created"]);
    expect(batch.body.results[0].error).toBe(`eventId: ${CONTROL}`);
  });

  it("refuses a body nested more than 64 levels deep with 400, never a 500", async () => {
    const deep = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
    for (const [method, path, json] of [
      ["POST", "/events", `{"eventId":"deep","type":"order.paid","userId":"u-1","data":{"x":${deep(200_000)}}}`],
      ["POST", "/events", `{"eventId":"deep","type":"order.paid","userId":"u-1","data":{"x":${deep(3000)}}}`],
      ["PUT", "/users/u-1", `{"attributes":{"x":${deep(5000)}}}`],
      ["POST", "/users/u-1/activities", `{"name":"n","properties":{"x":${deep(3000)}}}`],
    ] as const) {
      const error = await refused(400, method, path, json);
      expect(error.code).toBe("invalid_request");
      expect(error.message).toMatch(/must not nest more than 64 levels deep$/);
    }
    const fine = await rest(server.url, "POST", "/users/u-1/activities", events, JSON.parse(`{"name":"n","properties":{"x":${deep(50)}}}`));
    expect(fine.status).toBe(202);
  });

  it("refuses occurredAt values Postgres cannot store with 400, never a 500", async () => {
    for (const occurredAt of ["0000-01-01T00:00:00Z", "2026-01-01T00:00:00-23:59", "2026-01-01T00:00:00+16:00", "2026-02-30T12:00:00Z", "2026-11-30"]) {
      const event = await refused(400, "POST", "/events", { ...EVENT, eventId: `at-${occurredAt}`, occurredAt });
      expect(event.details!.fields[0]!.path).toBe("occurredAt");
      const activity = await refused(400, "POST", "/users/u-1/activities", { name: "app_opened", occurredAt });
      expect(activity.details!.fields[0]!.path).toBe("occurredAt");
    }
    const edge = await rest(server.url, "POST", "/events", events, { ...EVENT, eventId: "at-edge", occurredAt: "2026-01-01T00:00:00+15:59" });
    expect(edge.status).toBe(202);
  });

  it("refuses a body over the route's limit with 413 naming the limit", async () => {
    const sized = (bytes: number) => JSON.stringify({ ...EVENT, data: { blob: "x".repeat(bytes) } });
    const single = await refused(413, "POST", "/events", sized(2 * 1024 * 1024));
    expect(single).toEqual({ code: "payload_too_large", message: "The body is larger than this route's limit of 1 MiB" });
    const user = await refused(413, "PUT", "/users/u-1", JSON.stringify({ attributes: { blob: "x".repeat(2 * 1024 * 1024) } }));
    expect(user.message).toContain("1 MiB");
    const batch = await refused(413, "POST", "/events/batch", JSON.stringify({ events: [{ ...EVENT, data: { blob: "x".repeat(6 * 1024 * 1024) } }] }));
    expect(batch).toEqual({ code: "payload_too_large", message: "The body is larger than this route's limit of 5 MiB" });
  });

  it("refuses event data over 32 KiB with 400, in a single event and in a batch", async () => {
    const big = { ...EVENT, eventId: "big", data: { blob: "x".repeat(32 * 1024) } };
    const error = await refused(400, "POST", "/events", big);
    expect(error.details!.fields).toEqual([{ path: "data", message: "must be at most 32 KiB of JSON" }]);
    const batch = await rest(server.url, "POST", "/events/batch", events, { events: [big] });
    expect(batch.body.results).toEqual([{ eventId: "big", status: "invalid", error: "data: must be at most 32 KiB of JSON" }]);
    const justUnder = await rest(server.url, "POST", "/events", events, { ...EVENT, eventId: "just-under", data: { blob: "x".repeat(32 * 1024 - 20) } });
    expect(justUnder.status).toBe(202);
  });

  it("refuses a body that is not JSON with 415, and a missing body with 400", async () => {
    const json = JSON.stringify(EVENT);
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/xml"]) {
      expect(await refused(415, "POST", "/events", json, { "content-type": type })).toEqual({ code: "unsupported_media_type", message: "Send the body as application/json" });
    }
    const latin1 = await refused(415, "POST", "/events", json, { "content-type": "application/json; charset=iso-8859-1" });
    expect(latin1.code).toBe("unsupported_media_type");
    const missing = await refused(400, "POST", "/events", undefined, { "content-type": "application/json" });
    expect(missing.code).toBe("invalid_request");
  });

  it("refuses a device token that is empty or over 4,096 characters with 400", async () => {
    const long = "t".repeat(5000);
    expect((await refused(400, "POST", "/users/u-1/devices", { token: long, platform: "ios" })).details!.fields).toEqual([
      { path: "token", message: "must be at most 4,096 characters" },
    ]);
    expect((await refused(400, "POST", "/users/u-1/devices", { token: "", platform: "ios" })).details!.fields).toEqual([{ path: "token", message: "must not be empty" }]);
    expect((await refused(400, "DELETE", `/users/u-1/devices/${long}`)).details!.fields[0]!.path).toBe("token");
  });
});
