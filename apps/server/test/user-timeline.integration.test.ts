import { ingestEvents, recordWebhookEvent } from "@herald/db";
import { beforeAll, describe, expect, it } from "vitest";
import { seedSupportWorkspace } from "@herald/db/testing";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcQuery } from "./support/trpc-http.ts";

describe("a user's timeline: newest first, keyset-paged, filtered by channel, type, status and date", () => {
  // No workers: the rows stay as ingest left them, and the test sets their outcomes.
  const server = useTestServer();
  let support = "";

  beforeAll(async () => {
    support = (await memberWithSession(server.database, "support")).cookie;
    await seedSupportWorkspace(server.database.pool);
    // 12 promo events (3 channels each) and 2 security ones, an hour apart, the oldest first.
    await ingestEvents(server.database.pool, [
      ...Array.from({ length: 12 }, (_, i) => ({ eventId: `promo-${i}`, type: "promo.weekly", userId: "ada", data: {} })),
      ...Array.from({ length: 2 }, (_, i) => ({ eventId: `login-${i}`, type: "security.login", userId: "ada", data: {} })),
    ]);
    await server.database.pool.query(
      `UPDATE herald.notifications n SET created_at = timestamptz '2026-11-01T00:00:00Z' + (n.id * interval '1 hour'),
              status = CASE WHEN n.channel = 'email' AND n.type = 'promo.weekly' THEN 'skipped' ELSE 'delivered' END,
              reason = CASE WHEN n.channel = 'email' AND n.type = 'promo.weekly' THEN 'category_disabled' END,
              dispatch_state = 'done'`,
    );
  });

  const page = (input: Record<string, unknown>) => trpcQuery(server.url, "notifications.userHistory", { userId: "ada", ...input }, { cookie: support });

  it("walks every page newest first without a gap or a repeat", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const result = await page({ limit: 7, cursor });
      expect(result.error).toBeNull();
      seen.push(...result.data.items.map((n: { id: string }) => n.id));
      cursor = result.data.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(38);
    expect(seen).toEqual([...seen].sort((a, b) => Number(b) - Number(a)));
  });

  it("filters by channel, type and status, and pages within the filter", async () => {
    const first = await page({ channel: "email", status: "skipped", limit: 5 });
    expect(first.data.items).toHaveLength(5);
    expect(first.data.items.every((n: { channel: string; status: string; reason: string }) => n.channel === "email" && n.status === "skipped" && n.reason === "category_disabled")).toBe(true);
    const rest = await page({ channel: "email", status: "skipped", limit: 50, cursor: first.data.nextCursor });
    expect(rest.data.items).toHaveLength(7);
    expect(rest.data.nextCursor).toBeNull();
    const logins = await page({ type: "security.login" });
    expect(logins.data.items.map((n: { type: string; channel: string }) => `${n.type}/${n.channel}`)).toEqual(["security.login/email", "security.login/email"]);
  });

  it("filters by a date range: from inclusive, to exclusive", async () => {
    const { rows } = await server.database.pool.query<{ id: string; created_at: Date }>(
      "SELECT n.id::text AS id, n.created_at FROM herald.notifications n ORDER BY n.id LIMIT 3 OFFSET 10",
    );
    const result = await page({ from: rows[0]!.created_at.toISOString(), to: rows[2]!.created_at.toISOString() });
    expect(result.data.items.map((n: { id: string }) => n.id)).toEqual([rows[1]!.id, rows[0]!.id]);
  });

  it("shows the provider's webhooks about a message with their raw bodies, oldest first", async () => {
    const { rows } = await server.database.pool.query<{ id: string }>(
      "UPDATE herald.notifications SET provider_message_id = 'SM0123' WHERE id = (SELECT min(id) FROM herald.notifications WHERE channel = 'sms') RETURNING id::text",
    );
    const raw = "MessageSid=SM0123&MessageStatus=delivered&ErrorCode=";
    await recordWebhookEvent(server.database.pool, { provider: "twilio", eventKey: "SM0123:sent", kind: "sent", providerMessageId: "SM0123", raw: "MessageSid=SM0123&MessageStatus=sent" });
    await recordWebhookEvent(server.database.pool, { provider: "twilio", eventKey: "SM0123:delivered", kind: "delivered", providerMessageId: "SM0123", raw });
    const result = await page({ channel: "sms", limit: 100 });
    const sms = result.data.items.find((n: { id: string }) => n.id === rows[0]!.id);
    expect(sms.webhooks).toEqual([
      { provider: "twilio", kind: "sent", state: "pending", receivedAt: expect.any(String), raw: "MessageSid=SM0123&MessageStatus=sent" },
      { provider: "twilio", kind: "delivered", state: "pending", receivedAt: expect.any(String), raw },
    ]);
    expect(result.data.items.filter((n: { webhooks: unknown[] }) => n.webhooks.length > 0)).toHaveLength(1);
  });

  it("refuses a bad status, a bad date and a range that ends before it starts, naming the field", async () => {
    expect((await page({ status: "lost" })).error).toMatchObject({ data: { code: "BAD_REQUEST" }, message: expect.stringMatching(/^status: /) });
    expect((await page({ from: "yesterday" })).error).toMatchObject({ data: { code: "BAD_REQUEST" }, message: expect.stringMatching(/^from: /) });
    expect((await page({ from: "2026-11-02T00:00:00Z", to: "2026-11-01T00:00:00Z" })).error).toMatchObject({
      data: { code: "BAD_REQUEST" },
      message: "to: must be after from",
    });
  });
});
