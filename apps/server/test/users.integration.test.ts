import { beforeAll, describe, expect, it } from "vitest";
import { seedSupportWorkspace } from "@herald/db/testing";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery } from "./support/trpc-http.ts";

describe("the users API: find, read, edit preferences, lift suppressions", () => {
  const server = useTestServer();
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    for (const role of ["admin", "support", "viewer", "marketer", "operator"] as const) {
      cookies[role] = (await memberWithSession(server.database, role)).cookie;
    }
    await seedSupportWorkspace(server.database.pool);
  });

  const search = (query: string, cookie = cookies.support) => trpcQuery(server.url, "users.search", { query }, { cookie });

  it("finds users by a prefix of their id, email (any case) or phone, exact matches first", async () => {
    expect((await search("ad")).data.items).toEqual([{ externalId: "ada", email: "Ada.Lovelace@example.com", phone: "+4915112345678", matchedOn: "id" }]);
    expect((await search("ADA.LOVE")).data.items.map((u: { externalId: string; matchedOn: string }) => [u.externalId, u.matchedOn])).toEqual([["ada", "email"]]);
    expect((await search("+49170")).data.items.map((u: { externalId: string }) => u.externalId)).toEqual(["bob"]);
    expect((await search("+49")).data.items.map((u: { externalId: string }) => u.externalId).sort()).toEqual(["ada", "bob"]);
    expect((await search("+49 170-00")).data.items.map((u: { externalId: string }) => u.externalId)).toEqual(["bob"]);
    // Only separators: no phone is searched, so nothing matches (not every phone).
    expect((await search("(")).data.items).toEqual([]);
    // "bob@example.com" is bob's email exactly and also a prefix of nothing else.
    expect((await search("bob@example.com")).data.items[0]).toMatchObject({ externalId: "bob", matchedOn: "email" });
  });

  it("treats % and _ as themselves, not as wildcards", async () => {
    expect((await search("%")).data.items).toEqual([]);
    expect((await search("_")).data.items).toEqual([]);
  });

  it("refuses an empty search, naming the field, and a marketer's search", async () => {
    const empty = await search("   ");
    expect(empty.error).toMatchObject({ message: "query: type at least one character", data: { code: "BAD_REQUEST" } });
    expect((await search("ada", cookies.marketer)).error?.data.code).toBe("FORBIDDEN");
    expect((await search("ada", cookies.viewer)).error).toBeNull();
  });

  it("reads a user's profile, devices, preference matrix, suppressions and quiet hours", async () => {
    const ada = await trpcQuery(server.url, "users.get", { userId: "ada" }, { cookie: cookies.viewer });
    expect(ada.error).toBeNull();
    expect(ada.data.user).toMatchObject({ externalId: "ada", email: "Ada.Lovelace@example.com", timezone: "Europe/Berlin", attributes: { plan: "pro" } });
    expect(ada.data.user.id).toBeUndefined();
    expect(ada.data.devices).toEqual([
      expect.objectContaining({ token: "ada-phone", active: true, deactivatedReason: null }),
      expect.objectContaining({ token: "ada-old-tablet", active: false, deactivatedReason: "unregistered", deactivatedAt: expect.any(String) }),
    ]);
    const cell = (category: string, channel: string) =>
      ada.data.preferences.find((p: { category: string; channel: string }) => p.category === category && p.channel === channel);
    expect(cell("marketing", "email")).toMatchObject({ enabled: false, source: "unsubscribe_link", changedAt: expect.any(String) });
    expect(cell("marketing", "sms")).toMatchObject({ enabled: true, source: "default", changedAt: null });
    expect(cell("news", "email")).toMatchObject({ enabled: false, source: "default" });
    expect(cell("security", "email")).toMatchObject({ enabled: true, mandatory: true, source: "api" });
    expect(ada.data.categories.map((c: { key: string }) => c.key)).toEqual(["digest", "marketing", "news", "security"]);
    expect(ada.data.notificationTypes).toEqual(["digest.daily", "promo.weekly", "security.login"]);

    const bob = await trpcQuery(server.url, "users.get", { userId: "bob" }, { cookie: cookies.support });
    expect(bob.data.suppressions.map((s: { channel: string; address: string; reason: string; source: string }) => [s.channel, s.address, s.reason, s.source]).sort()).toEqual([
      ["email", "bob@example.com", "hard_bounce", "ses"],
      ["sms", "+4917000000001", "stop", "twilio"],
    ]);
    const cleo = await trpcQuery(server.url, "users.get", { userId: "cleo" }, { cookie: cookies.support });
    expect(cleo.data.quietHours).toEqual([expect.objectContaining({ category: "*", channel: "*", timezone: "UTC" })]);
  });

  it("answers NOT_FOUND for an unknown user and BAD_REQUEST for a bad id", async () => {
    expect((await trpcQuery(server.url, "users.get", { userId: "nobody" }, { cookie: cookies.support })).error).toMatchObject({
      message: 'No user has the id "nobody"',
      data: { code: "NOT_FOUND" },
    });
    expect((await trpcQuery(server.url, "users.get", { userId: "" }, { cookie: cookies.support })).error).toMatchObject({
      message: "userId: must not be empty",
      data: { code: "BAD_REQUEST" },
    });
    expect((await trpcQuery(server.url, "users.get", { userId: "ada" }, { cookie: cookies.marketer })).error?.data.code).toBe("FORBIDDEN");
  });

  it("lets support change a preference and reset it to the default, audit-logging both", async () => {
    const set = await trpcMutation(server.url, "users.setPreference", { userId: "ada", category: "marketing", channel: "email", enabled: true }, { cookie: cookies.support });
    expect(set.error).toBeNull();
    expect(set.data).toMatchObject({ category: "marketing", channel: "email", enabled: true, source: "support" });
    const reset = await trpcMutation(server.url, "users.setPreference", { userId: "ada", category: "marketing", channel: "sms", enabled: null }, { cookie: cookies.admin });
    expect(reset.data).toMatchObject({ enabled: true, source: "default" });

    const audit = await server.database.pool.query(
      "SELECT action, target, detail FROM herald.audit_log WHERE action = 'users.set_preference' ORDER BY id",
    );
    expect(audit.rows[0]).toEqual({
      action: "users.set_preference",
      target: "user:ada",
      detail: { category: "marketing", channel: "email", before: { enabled: false, source: "unsubscribe_link" }, after: { enabled: true, source: "support" } },
    });
    expect(audit.rows).toHaveLength(2);
  });

  it("refuses to switch off a mandatory category, an unknown category, and a viewer's edit — writing nothing", async () => {
    const mandatory = await trpcMutation(server.url, "users.setPreference", { userId: "ada", category: "security", channel: "email", enabled: false }, { cookie: cookies.support });
    expect(mandatory.error).toMatchObject({ message: "security is mandatory: it cannot be switched off", data: { code: "CONFLICT" } });
    const unknown = await trpcMutation(server.url, "users.setPreference", { userId: "ada", category: "nope", channel: "email", enabled: false }, { cookie: cookies.support });
    expect(unknown.error?.data.code).toBe("NOT_FOUND");
    const badChannel = await trpcMutation(server.url, "users.setPreference", { userId: "ada", category: "marketing", channel: "fax", enabled: false }, { cookie: cookies.support });
    expect(badChannel.error).toMatchObject({ data: { code: "BAD_REQUEST" }, message: expect.stringContaining("channel:") });
    const viewer = await trpcMutation(server.url, "users.setPreference", { userId: "ada", category: "marketing", channel: "push", enabled: false }, { cookie: cookies.viewer });
    expect(viewer.error?.data.code).toBe("FORBIDDEN");
    const rows = await server.database.pool.query(
      "SELECT p.category, p.channel FROM herald.preferences p JOIN herald.users u ON u.id = p.user_id WHERE u.external_id = 'ada' AND p.channel = 'push'",
    );
    expect(rows.rows).toEqual([]);
  });

  it("lifts a suppression of the user's own address with a reason, audit-logged; refuses others", async () => {
    const tooShort = await trpcMutation(server.url, "users.liftSuppression", { userId: "bob", channel: "sms", address: "+4917000000001", reason: "x" }, { cookie: cookies.support });
    expect(tooShort.error).toMatchObject({ message: "reason: say why, in at least 3 characters", data: { code: "BAD_REQUEST" } });
    const notHis = await trpcMutation(server.url, "users.liftSuppression", { userId: "ada", channel: "sms", address: "+4917000000001", reason: "asked by phone" }, { cookie: cookies.support });
    expect(notHis.error?.data.code).toBe("NOT_FOUND");
    const operator = await trpcMutation(server.url, "users.liftSuppression", { userId: "bob", channel: "sms", address: "+4917000000001", reason: "asked by phone" }, { cookie: cookies.operator });
    expect(operator.error?.data.code).toBe("FORBIDDEN");

    const lifted = await trpcMutation(server.url, "users.liftSuppression", { userId: "bob", channel: "sms", address: "+4917000000001", reason: "Texted START to support" }, { cookie: cookies.support });
    expect(lifted.error).toBeNull();
    const left = await server.database.pool.query("SELECT channel, address FROM herald.suppressions ORDER BY channel");
    expect(left.rows).toEqual([{ channel: "email", address: "bob@example.com" }]);
    const audit = await server.database.pool.query("SELECT target, detail FROM herald.audit_log WHERE action = 'users.lift_suppression'");
    expect(audit.rows).toEqual([
      {
        target: "user:bob",
        detail: expect.objectContaining({ channel: "sms", address: "+4917000000001", suppressedFor: "stop", suppressedBy: "twilio", reason: "Texted START to support" }),
      },
    ]);
    const again = await trpcMutation(server.url, "users.liftSuppression", { userId: "bob", channel: "sms", address: "+4917000000001", reason: "Texted START to support" }, { cookie: cookies.support });
    expect(again.error?.data.code).toBe("NOT_FOUND");
  });
});
