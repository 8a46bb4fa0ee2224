import { describe, expect, it } from "vitest";
import { rest } from "./support/rest.ts";
import { withoutWrites } from "./support/table-snapshot.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery } from "./support/trpc-http.ts";

// Categories and notification types through the dashboard's procedures: the same service as the
// REST routes, so both refuse the same input with the same words, and every change is audit-logged.

const EMAIL = { subject: "Order {{ data.order_id }} is paid", html: "<p>Paid</p>" };

describe("categories and notification types over tRPC", () => {
  const server = useTestServer();
  const admin = () => memberWithSession(server.database, "admin");

  it("creates, reads and changes a category, audit-logging each change with before and after", async () => {
    const { cookie, member } = await admin();
    const created = await trpcMutation(server.url, "categories.upsert", { key: "promotions", label: "Promotions", defaults: { sms: false }, aliases: ["promo"] }, { cookie });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({ created: true, category: { key: "promotions", defaults: { push: true, email: true, sms: false }, aliases: ["promo"], mandatory: false } });

    const changed = await trpcMutation(server.url, "categories.upsert", { key: "promotions", label: "Offers", mandatory: true, tracking: { opens: true } }, { cookie });
    expect(changed.data).toMatchObject({ created: false, category: { label: "Offers", mandatory: true, aliases: [], tracking: { opens: true, clicks: false } } });

    const got = await trpcQuery(server.url, "categories.get", { key: "promotions" }, { cookie });
    expect(got.data.category.label).toBe("Offers");
    const { cookie: marketer } = await memberWithSession(server.database, "marketer");
    const listed = await trpcQuery(server.url, "categories.list", undefined, { cookie: marketer });
    expect(listed.data.categories.map((c: { key: string }) => c.key)).toContain("promotions");

    const entries = await server.database.prisma.auditEntry.findMany({ where: { target: "promotions" }, orderBy: { id: "asc" } });
    expect(entries.map((e) => e.action)).toEqual(["categories.create", "categories.update"]);
    expect(entries[0]).toMatchObject({ actor: member.email, actorMemberId: BigInt(member.id), detail: { from: null, to: { label: "Promotions", aliases: ["promo"] } } });
    expect(entries[1]!.detail).toMatchObject({ from: { label: "Promotions", mandatory: false }, to: { label: "Offers", mandatory: true } });
  });

  it("refuses bad input with the same message over tRPC and REST, writing nothing", async () => {
    const { cookie } = await admin();
    const adminKey = await server.apiKey("admin");
    const pool = server.database.pool;
    await trpcMutation(server.url, "categories.upsert", { key: "billing", label: "Billing", aliases: ["invoices"] }, { cookie });

    const categoryCases: Array<{ key: string; body: Record<string, unknown> }> = [
      { key: "receipts", body: { label: "  " } },
      { key: "receipts", body: { label: "Receipts", aliases: ["r", "r"] } },
      { key: "receipts", body: { label: "Receipts", aliases: ["invoices"] } },
      { key: "receipts", body: { label: "Receipts", frequencyCap: { max: 0, windowSeconds: 10, action: "drop" } } },
      { key: "Receipts!", body: { label: "Receipts" } },
    ];
    for (const { key, body } of categoryCases) {
      const viaTrpc = await withoutWrites(pool, () => trpcMutation(server.url, "categories.upsert", { key, ...body }, { cookie }));
      const viaRest = await withoutWrites(pool, () => rest(server.url, "PUT", `/categories/${encodeURIComponent(key)}`, adminKey, body));
      expect(viaTrpc.error, JSON.stringify(body)).not.toBeNull();
      expect(viaTrpc.error!.message, JSON.stringify(body)).toBe(viaRest.body.error.message);
    }

    const typeCases: unknown[][] = [
      [{ channel: "push", category: "ghosts", content: { body: "Boo" } }],
      [{ channel: "email", category: "billing", content: { body: "Hi" } }],
      [{ channel: "email", category: "billing", template: "no.such.template" }],
      [{ channel: "push", category: "billing", content: { body: "Hi {{ secrets.key }}" } }],
      [{ channel: "push", category: "billing" }],
      [],
    ];
    for (const channels of typeCases) {
      const viaTrpc = await withoutWrites(pool, () => trpcMutation(server.url, "notificationTypes.upsert", { type: "bad.type", channels }, { cookie }));
      const viaRest = await withoutWrites(pool, () => rest(server.url, "PUT", "/notification-types/bad.type", adminKey, { channels }));
      expect(viaTrpc.error, JSON.stringify(channels)).not.toBeNull();
      expect(viaTrpc.error!.message, JSON.stringify(channels)).toBe(viaRest.body.error.message);
    }
    const unknown = await trpcMutation(server.url, "notificationTypes.upsert", { type: "bad.type", channels: typeCases[0] }, { cookie });
    expect(unknown.error).toMatchObject({
      message: "Unknown category: ghosts — create it first (PUT /api/v1/categories/:key, or Settings → Categories)",
      data: { code: "UNPROCESSABLE_CONTENT" },
    });
    const field = await trpcMutation(server.url, "notificationTypes.upsert", { type: "bad.type", channels: typeCases[3] }, { cookie });
    expect(field.error?.data.fields).toEqual([
      { path: "channels.0.content.body", message: '"{{ secrets.key }}" is not a placeholder: use {{ user.<field> }} or {{ data.<path> }}' },
    ]);
  });

  it("creates a notification type on a published template, changes and deletes it, audit-logging each step", async () => {
    const { cookie, member } = await admin();
    await trpcMutation(server.url, "categories.upsert", { key: "orders", label: "Orders" }, { cookie });
    await trpcMutation(server.url, "templates.create", { key: "order.paid", name: "Order paid", channels: ["email"], defaultCategory: null, defaultLocale: "en" }, { cookie });
    const variables = [{ name: "data.order_id", type: "string", required: true, example: "A-1" }];
    await trpcMutation(server.url, "templates.saveDraft", { key: "order.paid", body: { variables, content: { en: { email: EMAIL } } } }, { cookie });
    expect((await trpcMutation(server.url, "templates.publish", { key: "order.paid" }, { cookie })).error).toBeNull();

    const created = await trpcMutation(server.url, "notificationTypes.upsert", { type: "order.paid", channels: [{ channel: "email", category: "orders", template: "order.paid" }] }, { cookie });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({ created: true, notificationType: { type: "order.paid", channels: [{ channel: "email", category: "orders", lane: "bulk", template: "order.paid" }] } });

    const changed = await trpcMutation(
      server.url,
      "notificationTypes.upsert",
      { type: "order.paid", channels: [{ channel: "email", category: "orders", lane: "critical", template: "order.paid" }, { channel: "push", category: "orders", content: { title: "Paid", body: "Order {{ data.order_id }}" } }] },
      { cookie },
    );
    expect(changed.data.created).toBe(false);
    const { cookie: viewer } = await memberWithSession(server.database, "viewer");
    const read = await trpcQuery(server.url, "notificationTypes.get", { type: "order.paid" }, { cookie: viewer });
    expect(read.data.notificationType.channels.map((s: { channel: string; lane: string }) => `${s.channel}/${s.lane}`)).toEqual(["email/critical", "push/bulk"]);
    const refused = await trpcMutation(server.url, "notificationTypes.delete", { type: "order.paid" }, { cookie: viewer });
    expect(refused.error?.data.code).toBe("FORBIDDEN");

    expect((await trpcMutation(server.url, "notificationTypes.delete", { type: "order.paid" }, { cookie })).data).toEqual({ deleted: "order.paid" });
    const gone = await trpcQuery(server.url, "notificationTypes.get", { type: "order.paid" }, { cookie });
    expect(gone.error).toMatchObject({ message: 'There is no notification type "order.paid"', data: { code: "NOT_FOUND" } });
    const again = await trpcMutation(server.url, "notificationTypes.delete", { type: "order.paid" }, { cookie });
    expect(again.error?.data.code).toBe("NOT_FOUND");

    const entries = await server.database.prisma.auditEntry.findMany({ where: { action: { startsWith: "notification_types." } }, orderBy: { id: "asc" } });
    expect(entries.map((e) => [e.action, e.target, e.actor])).toEqual([
      ["notification_types.create", "order.paid", member.email],
      ["notification_types.update", "order.paid", member.email],
      ["notification_types.delete", "order.paid", member.email],
    ]);
    expect(entries[1]!.detail).toMatchObject({ from: [{ lane: "bulk" }], to: [{ lane: "critical" }, { channel: "push" }] });
  });

  it("refuses to delete a category a notification type (by key or alias) or a user's preference uses, and deletes an unused one", async () => {
    const { cookie } = await admin();
    const pool = server.database.pool;
    await trpcMutation(server.url, "categories.upsert", { key: "reminders", label: "Reminders", aliases: ["reminder"] }, { cookie });
    await trpcMutation(server.url, "notificationTypes.upsert", { type: "cart.reminder", channels: [{ channel: "push", category: "reminder", content: { body: "Your cart" } }] }, { cookie });

    const usedByType = await withoutWrites(pool, () => trpcMutation(server.url, "categories.delete", { key: "reminders" }, { cookie }));
    expect(usedByType.error).toMatchObject({ message: 'Category "reminders" is used by notification type cart.reminder: it stays', data: { code: "CONFLICT" } });

    await trpcMutation(server.url, "notificationTypes.delete", { type: "cart.reminder" }, { cookie });
    const { rows } = await pool.query("INSERT INTO herald.users (external_id) VALUES ('u-pref') RETURNING id");
    await pool.query("INSERT INTO herald.preferences (user_id, category, channel, enabled, source) VALUES ($1, 'reminders', 'push', false, 'api')", [rows[0].id]);
    const adminKey = await server.apiKey("admin");
    const restRefusal = await withoutWrites(pool, () => rest(server.url, "DELETE", "/categories/reminders", adminKey));
    expect(restRefusal.status).toBe(409);
    expect(restRefusal.body.error).toMatchObject({ code: "category_in_use", message: `Category "reminders" is used by users' preferences (their opt-outs would be lost): it stays` });

    await pool.query("DELETE FROM herald.preferences WHERE user_id = $1", [rows[0].id]);
    expect((await rest(server.url, "DELETE", "/categories/reminders", adminKey)).status).toBe(204);
    expect((await pool.query("SELECT 1 FROM herald.category_aliases WHERE alias = 'reminder'")).rowCount).toBe(0);
    const entry = await server.database.prisma.auditEntry.findFirstOrThrow({ where: { action: "categories.delete", target: "reminders" } });
    expect(entry).toMatchObject({ actorMemberId: null, actor: expect.stringMatching(/^api_key:hk_.+…$/), detail: { from: { label: "Reminders", aliases: ["reminder"] } } });
    expect((await trpcMutation(server.url, "categories.delete", { key: "reminders" }, { cookie })).error?.data.code).toBe("NOT_FOUND");
  });

  it("refuses to delete a category a broadcast was composed in", async () => {
    const { cookie } = await admin();
    const call = async (path: string, input: unknown) => {
      const r = await trpcMutation(server.url, path, input, { cookie });
      if (r.error) throw new Error(`${path}: ${r.error.message}`);
      return r.data;
    };
    await call("categories.upsert", { key: "deals", label: "Deals" });
    await call("templates.create", { key: "deal", name: "Deal", channels: ["email"], defaultCategory: null, defaultLocale: "en" });
    await call("templates.saveDraft", { key: "deal", body: { variables: [], content: { en: { email: { subject: "A deal", html: "<p>Half off</p>" } } } } });
    await call("templates.publish", { key: "deal" });
    const segment = await call("segments.create", { name: "Everyone with email", rule: { kind: "has_email" } });
    await call("broadcasts.create", { name: "Deal", segmentId: segment.id, templateKey: "deal", variants: [{ version: 1, percent: 100 }], channels: ["email"], category: "deals", holdoutPercent: 0, data: {} });

    const refused = await withoutWrites(server.database.pool, () => trpcMutation(server.url, "categories.delete", { key: "deals" }, { cookie }));
    expect(refused.error).toMatchObject({ message: 'Category "deals" is used by 1 broadcast: it stays', data: { code: "CONFLICT" } });
  });
});

describe("the audit log's filters", () => {
  const server = useTestServer();

  it("narrows by member, action and date range, paging newest first", async () => {
    const alice = await memberWithSession(server.database, "admin");
    const bob = await memberWithSession(server.database, "admin");
    // An entry from last week (logged first, as it would have been), to fall outside a date range.
    await server.database.pool.query(
      "INSERT INTO herald.audit_log (at, actor_member_id, actor, action, target) VALUES (now() - interval '7 days', $1, $2, 'categories.create', 'old')",
      [alice.member.id, alice.member.email],
    );
    for (let i = 0; i < 3; i++) await trpcMutation(server.url, "categories.upsert", { key: `alice-${i}`, label: `Alice ${i}` }, { cookie: alice.cookie });
    await trpcMutation(server.url, "settings.update", { key: "workspace.name", value: "Bob's" }, { cookie: bob.cookie });
    await trpcMutation(server.url, "categories.upsert", { key: "bob-0", label: "Bob" }, { cookie: bob.cookie });

    const list = (input: Record<string, unknown>) => trpcQuery(server.url, "audit.list", input, { cookie: alice.cookie });
    const targets = (page: { data: { items: Array<{ target: string }> } }) => page.data.items.map((i) => i.target);

    expect(targets(await list({ memberId: bob.member.id }))).toEqual(["bob-0", "workspace.name"]);
    expect(targets(await list({ action: "categories.create", memberId: alice.member.id }))).toEqual(["alice-2", "alice-1", "alice-0", "old"]);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    expect(targets(await list({ action: "categories.", from: since }))).toEqual(["bob-0", "alice-2", "alice-1", "alice-0"]);
    const until = new Date(Date.now() - 86_400_000).toISOString();
    expect(targets(await list({ to: until }))).toEqual(["old"]);

    const first = await list({ memberId: alice.member.id, limit: 2 });
    expect(targets(first)).toEqual(["alice-2", "alice-1"]);
    const second = await list({ memberId: alice.member.id, limit: 2, cursor: first.data.nextCursor });
    expect(targets(second)).toEqual(["alice-0", "old"]);
    expect(second.data.nextCursor).toBeNull();

    const actions = await trpcQuery(server.url, "audit.actions", undefined, { cookie: alice.cookie });
    expect(actions.data.actions).toEqual(["categories.create", "settings.update"]);

    const backwards = await list({ from: since, to: until });
    expect(backwards.error).toMatchObject({ message: "to: must be after from", data: { code: "BAD_REQUEST" } });
    const notADate = await list({ from: "yesterday" });
    expect(notADate.error?.message).toBe("from: must be an ISO 8601 date-time, such as 2026-11-30T00:00:00Z");
  });

  it("pages through entries that share one instant without skipping or repeating any", async () => {
    const { cookie } = await memberWithSession(server.database, "admin");
    // One statement, one transaction: every row gets the same now(); ids 7 to 11 also catch a sort on the id as text.
    await server.database.pool.query(
      "INSERT INTO herald.audit_log (actor, action, target) SELECT 'cli', 'bulk.same_instant', 'n' || i FROM generate_series(1, 5) i",
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await trpcQuery(server.url, "audit.list", { action: "bulk.", limit: 2, cursor }, { cookie });
      seen.push(...page.data.items.map((i: { target: string }) => i.target));
      cursor = page.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(["n5", "n4", "n3", "n2", "n1"]);
  });
});
