import { claimBatch, consentHolds, ingestEvents, suppressAddresses } from "@herald/db";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { BreakerBook } from "../src/dispatch/breaker-book.ts";
import { dispatchBatch, type DispatcherDependencies } from "../src/dispatch/dispatcher.ts";
import { createProviderRegistry } from "../src/providers/provider-registry.ts";
import { rest } from "./support/rest.ts";
import { ScriptedProvider } from "./support/scripted-provider.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery } from "./support/trpc-http.ts";

// Erasing a user over REST (DELETE /api/v1/users/:userId, admin keys) and tRPC (users.erase,
// admins): who may, what the audit log keeps, and that nothing of theirs is sent afterwards.

describe("erasing a user through the API", () => {
  const server = useTestServer();
  const cookies: Record<string, string> = {};
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    for (const role of ["admin", "support", "viewer", "marketer", "operator"] as const) {
      cookies[role] = (await memberWithSession(server.database, role)).cookie;
    }
    for (const scope of ["events", "read", "admin"] as const) keys[scope] = await server.apiKey(scope);
    await server.database.pool.query(`
      INSERT INTO herald.categories (key, label) VALUES ('news', 'News');
      INSERT INTO herald.notification_types (type, channels) VALUES
        ('news.email', '[{"channel": "email", "category": "news", "content": {"subject": "Hi", "body": "Hello {{ data.name }}"}}]');`);
  });

  async function user(id: string, email: string) {
    const r = await rest(server.url, "PUT", `/users/${id}`, keys.events!, { email });
    expect(r.status).toBe(200);
  }

  it("refuses a key without the admin scope, and leaves the user whole", async () => {
    await user("rest-1", "rest-1@example.com");
    for (const scope of ["events", "read"]) {
      const r = await rest(server.url, "DELETE", "/users/rest-1", keys[scope]!);
      expect(r.status).toBe(403);
      expect(r.body.error.message).toContain('needs a key with the "admin" scope');
    }
    expect((await rest(server.url, "DELETE", "/users/rest-1", null)).status).toBe(401);
    expect((await server.database.pool.query("SELECT 1 FROM herald.users WHERE external_id = 'rest-1'")).rowCount).toBe(1);
  });

  it("erases with an admin key, says what it did, and answers the same way to a second call", async () => {
    const first = await rest(server.url, "DELETE", "/users/rest-1", keys.admin!);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ erased: true, erasedRef: expect.stringMatching(/^erased-user:\d+$/), notificationsAnonymised: 0 });
    const second = await rest(server.url, "DELETE", "/users/rest-1", keys.admin!);
    expect(second).toMatchObject({ status: 200, body: { erased: false } });
    const { rows } = await server.database.pool.query("SELECT actor, target, detail::text FROM herald.audit_log WHERE action = 'users.erase'");
    expect(rows).toHaveLength(1);
    expect(rows[0].actor).toMatch(/^api-key:/);
    expect(rows[0].target).toBe(first.body.erasedRef);
    expect(rows[0].detail).not.toContain("rest-1");
  });

  it("refuses a bad user id, naming the field", async () => {
    const r = await rest(server.url, "DELETE", `/users/${"x".repeat(300)}`, keys.admin!);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain("userId");
  });

  it("lets only admins erase over tRPC, with the user's id typed again", async () => {
    await user("trpc-1", "trpc-1@example.com");
    for (const role of ["support", "viewer", "marketer", "operator"]) {
      const r = await trpcMutation(server.url, "users.erase", { userId: "trpc-1", confirmation: "trpc-1" }, { cookie: cookies[role] });
      expect({ role, code: r.error?.data.code }).toEqual({ role, code: "FORBIDDEN" });
    }
    expect((await trpcMutation(server.url, "users.erase", { userId: "trpc-1", confirmation: "trpc-1" })).error?.data.code).toBe("UNAUTHORIZED");
    const wrong = await trpcMutation(server.url, "users.erase", { userId: "trpc-1", confirmation: "trpc" }, { cookie: cookies.admin });
    expect(wrong.error).toMatchObject({ message: "confirmation: type the user's id (trpc-1) to erase them", data: { code: "BAD_REQUEST" } });
    expect((await server.database.pool.query("SELECT 1 FROM herald.users WHERE external_id = 'trpc-1'")).rowCount).toBe(1);

    const done = await trpcMutation(server.url, "users.erase", { userId: "trpc-1", confirmation: "trpc-1" }, { cookie: cookies.admin });
    expect(done.error).toBeNull();
    expect(done.data).toMatchObject({ erasedRef: expect.stringMatching(/^erased-user:\d+$/) });
    expect((await trpcQuery(server.url, "users.get", { userId: "trpc-1" }, { cookie: cookies.admin })).error?.data.code).toBe("NOT_FOUND");
    const again = await trpcMutation(server.url, "users.erase", { userId: "trpc-1", confirmation: "trpc-1" }, { cookie: cookies.admin });
    expect(again.error?.data.code).toBe("NOT_FOUND");

    const audit = await trpcQuery(server.url, "audit.list", {}, { cookie: cookies.admin });
    const entry = audit.data.items.find((e: { action: string; target: string }) => e.action === "users.erase" && e.target === done.data.erasedRef);
    expect(entry).toMatchObject({ actor: expect.stringContaining("@") });
    expect(JSON.stringify(entry)).not.toContain("trpc-1");
  });

  describe("an erased user's notifications in flight", () => {
    const provider = new ScriptedProvider("scripted-email", "email");
    const deps = (): DispatcherDependencies => ({
      sql: server.database.pool,
      holdConsent: consentHolds(server.database.pool),
      providers: createProviderRegistry({ email: { primary: provider } }),
      breakers: new BreakerBook(server.database.pool, () => ({ failureThreshold: 3, coolDownMs: 30_000 }), 0),
      policy: async () => ({
        retry: { floorMs: 10_000, baseMs: 10_000, maxAttempts: 3, maxAgeMs: 3_600_000 },
        outageMaxAgeMs: 86_400_000,
        breakerCoolDownMs: 30_000,
        defaultTimezone: "UTC",
      }),
      log: pino({ level: "silent" }),
      random: () => 0.5,
    });

    it("are canceled, and a job that already took them sends nothing", async () => {
      await user("flight-1", "flight-1@example.com");
      await user("flight-2", "flight-2@example.com");
      const [queued] = await ingestEvents(server.database.pool, [{ eventId: "ev-q", type: "news.email", userId: "flight-1", data: { name: "F" } }]);
      const [claimed] = await ingestEvents(server.database.pool, [{ eventId: "ev-c", type: "news.email", userId: "flight-1", data: { name: "F" } }]);
      const [control] = await ingestEvents(server.database.pool, [{ eventId: "ev-o", type: "news.email", userId: "flight-2", data: { name: "O" } }]);
      const queuedId = queued!.notifications[0]!.id;
      const claimedId = claimed!.notifications[0]!.id;
      const controlId = control!.notifications[0]!.id;
      // A job took this one and its worker died before sending: a re-run of the job may take it again.
      expect(await claimBatch(server.database.pool, [claimedId], "7")).toHaveLength(1);

      const erased = await rest(server.url, "DELETE", "/users/flight-1", keys.admin!);
      expect(erased.body).toMatchObject({ erased: true, notificationsCanceled: 2, notificationsAnonymised: 2 });

      await dispatchBatch(deps(), "email", [queuedId, controlId], "8");
      await dispatchBatch(deps(), "email", [claimedId], "7");
      expect(provider.calls.map((m) => m.to)).toEqual(["flight-2@example.com"]);
      const { rows } = await server.database.pool.query(
        "SELECT id::text, status, reason, dispatch_state, address FROM herald.notifications WHERE id = ANY ($1::bigint[]) ORDER BY id",
        [[queuedId, claimedId]],
      );
      expect(rows).toEqual([
        { id: queuedId, status: "canceled", reason: "user_erased", dispatch_state: "done", address: null },
        { id: claimedId, status: "canceled", reason: "user_erased", dispatch_state: "done", address: null },
      ]);
    });

    it("stay unsent for a new user with the erased, suppressed address", async () => {
      await user("flight-3", "flight-3@example.com");
      await suppressAddresses(server.database.pool, [{ channel: "email", address: "flight-3@example.com", reason: "complaint", source: "ses" }]);
      expect((await rest(server.url, "DELETE", "/users/flight-3", keys.admin!)).body).toMatchObject({ suppressionsHashed: 1 });
      await user("flight-3-again", "Flight-3@Example.com");
      const [again] = await ingestEvents(server.database.pool, [{ eventId: "ev-a", type: "news.email", userId: "flight-3-again", data: { name: "A" } }]);
      const id = again!.notifications[0]!.id;
      const before = provider.calls.length;
      await dispatchBatch(deps(), "email", [id], "9");
      expect(provider.calls.length).toBe(before);
      const { rows } = await server.database.pool.query("SELECT status, reason FROM herald.notifications WHERE id = $1", [id]);
      expect(rows[0]).toEqual({ status: "skipped", reason: "suppressed:complaint" });
    });
  });
});
