import { revokeApiKey } from "@herald/db";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/auth/api-keys.ts";
import { rest } from "./support/rest.ts";
import { countRows, withoutWrites } from "./support/table-snapshot.ts";
import { useTestServer } from "./support/test-server.ts";

// Who may call the REST API (docs/api.md): API keys, nested scopes, a key's own rate, and the
// outbox backlog. Every refusal here writes nothing.

const EVENT = { eventId: "order-1-paid", type: "order.paid", userId: "u-1" };

async function defineOrderPaid(url: string, admin: string) {
  expect((await rest(url, "PUT", "/categories/orders", admin, { label: "Orders" })).status).toBe(200);
  const type = await rest(url, "PUT", "/notification-types/order.paid", admin, {
    channels: [
      { channel: "push", category: "orders", content: { body: "Paid" } },
      { channel: "email", category: "orders", content: { subject: "Paid", body: "Paid" } },
      { channel: "sms", category: "orders", content: { body: "Paid" } },
    ],
  });
  expect(type.status).toBe(201);
}

describe("API keys and scopes", () => {
  const server = useTestServer();

  beforeAll(async () => {
    await defineOrderPaid(server.url, await server.apiKey("admin"));
  });

  it("refuses a missing, malformed, unknown or revoked key with 401", async () => {
    const live = await server.apiKey("admin");
    const { key: revokedKey, record } = await createApiKey(server.database.pool, { name: "old", scope: "admin", ratePerMinute: null, createdBy: null });
    expect((await rest(server.url, "POST", "/events", `Bearer ${revokedKey}`, { ...EVENT, eventId: "before-revoke" })).status).toBe(202);
    await revokeApiKey(server.database.pool, record.id);
    const { key: revokedBySql } = await createApiKey(server.database.pool, { name: "old too", scope: "events", ratePerMinute: null, createdBy: null });
    await server.database.pool.query("UPDATE herald.api_keys SET revoked_at = now() WHERE prefix = $1", [revokedBySql.slice(0, 11)]);

    const wrongSecret = `${live.slice(0, -4)}${live.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    const cases: Array<[string, string | null]> = [
      ["no header", null],
      ["an empty bearer", "Bearer "],
      ["another scheme", `Basic ${Buffer.from("user:pass").toString("base64")}`],
      ["the key without Bearer", live.slice(7)],
      ["a malformed key", "Bearer hk_short"],
      ["an unknown key", `Bearer hk_AAAAAAAA_${"A".repeat(43)}`],
      ["a known prefix with the wrong secret", wrongSecret],
      ["a key revoked with revokeApiKey", `Bearer ${revokedKey}`],
      ["a key revoked with SQL", `Bearer ${revokedBySql}`],
    ];
    for (const [what, auth] of cases) {
      const refused = await withoutWrites(server.database.pool, () => rest(server.url, "POST", "/events", auth, EVENT));
      expect(refused.status, what).toBe(401);
      expect(refused.body, what).toEqual({ error: { code: "unauthorized", message: "A valid API key is required: Authorization: Bearer hk_…" } });
    }
    // Unknown routes too answer 401 before 404, so the API's shape is not public.
    expect((await rest(server.url, "GET", "/no-such-route", null)).status).toBe(401);
    expect((await rest(server.url, "GET", "/no-such-route", live)).body).toEqual({ error: { code: "not_found", message: "No such API route" } });
  });

  it("refuses a key whose scope is too small with 403 (events ⊂ read ⊂ admin)", async () => {
    const keys = { events: await server.apiKey("events"), read: await server.apiKey("read") };
    const cases: Array<[keyof typeof keys, string, string, unknown, "read" | "admin"]> = [
      ["read", "PUT", "/categories/offers", { label: "Offers" }, "admin"],
      ["read", "GET", "/categories/orders", undefined, "admin"],
      ["read", "GET", "/categories", undefined, "admin"],
      ["read", "PUT", "/notification-types/offer.made", { channels: [{ channel: "push", category: "orders", content: { body: "x" } }] }, "admin"],
      ["read", "GET", "/notification-types/order.paid", undefined, "admin"],
      ["events", "PUT", "/categories/offers", { label: "Offers" }, "admin"],
      ["events", "GET", "/users/u-1/notifications", undefined, "read"],
      ["events", "GET", "/notifications/1", undefined, "read"],
      ["events", "GET", "/sandbox/messages", undefined, "read"],
    ];
    for (const [scope, method, path, body, needed] of cases) {
      const refused = await withoutWrites(server.database.pool, () => rest(server.url, method, path, keys[scope], body));
      expect(refused.status, `${scope} ${method} ${path}`).toBe(403);
      expect(refused.body).toEqual({
        error: { code: "forbidden", message: `This route needs a key with the "${needed}" scope; this key has "${scope}"` },
      });
    }
    // The larger scopes hold the smaller ones.
    expect((await rest(server.url, "GET", "/users/u-1/notifications", await server.apiKey("admin"))).status).toBe(200);
    expect((await rest(server.url, "GET", "/users/u-1/preferences", keys.read)).status).toBe(200);
  });

  it("holds a key to its per-minute rate with 429 rate_limited and Retry-After, other keys unaffected", async () => {
    const limited = await server.apiKey("events", 2);
    expect((await rest(server.url, "GET", "/users/u-1/preferences", limited)).status).toBe(200);
    expect((await rest(server.url, "GET", "/users/u-1/preferences", limited)).status).toBe(200);
    const third = await withoutWrites(server.database.pool, () => rest(server.url, "POST", "/events", limited, { ...EVENT, eventId: "over-rate" }));
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ error: { code: "rate_limited", message: "This key is limited to 2 requests a minute" } });
    const retryAfter = Number(third.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${retryAfter}`).toBe(true);

    expect((await rest(server.url, "POST", "/events", await server.apiKey("events"), { ...EVENT, eventId: "other-key" })).status).toBe(202);
  });
});

describe("outbox backlog", () => {
  const server = useTestServer({ env: { HERALD_OUTBOX_BACKLOG_LIMIT: "1000" } });

  it("answers ingest with 429 outbox_backlog and Retry-After while more notifications wait for the pump than the limit", async () => {
    await defineOrderPaid(server.url, await server.apiKey("admin"));
    const events = await server.apiKey("events");
    // No workers run here, so nothing drains: 334 events × 3 channels = 1,002 waiting notifications.
    const batch = await rest(server.url, "POST", "/events/batch", events, {
      events: Array.from({ length: 334 }, (_, i) => ({ eventId: `fill-${i}`, type: "order.paid", userId: `u-${i % 7}` })),
    });
    expect(batch.status).toBe(200);
    expect(await countRows(server.database.pool, "notifications")).toBe(1002);
    // The backlog is counted at most once a second per process.
    await new Promise((resolve) => setTimeout(resolve, 1100));

    for (const [path, body] of [
      ["/events", EVENT],
      ["/events/batch", { events: [EVENT] }],
    ] as const) {
      const refused = await withoutWrites(server.database.pool, () => rest(server.url, "POST", path, events, body));
      expect(refused.status, path).toBe(429);
      expect(refused.body).toEqual({ error: { code: "outbox_backlog", message: "Herald's outbox is over its backlog limit; retry shortly" } });
      expect(refused.headers.get("retry-after")).toBe("5");
    }
    // Only ingest waits; the rest of the API answers as usual.
    expect((await rest(server.url, "PUT", "/users/u-1", events, { email: "ada@example.com" })).status).toBe(200);
  });
});
