import { describe, expect, it } from "vitest";
import { evaluateGates, type GateTuple } from "../src/dispatch/gates.ts";
import { useTestDatabase } from "./support/test-database.ts";

/** 2026-11-30 14:00 UTC: 15:00 in Berlin, 23:00 in Tokyo. */
const NOW = new Date("2026-11-30T14:00:00Z");

describe("herald.evaluate_gates", () => {
  const test = useTestDatabase();
  const ids: Record<string, string> = {};

  async function user(name: string, fields: { email?: string; phone?: string; timezone?: string } = {}): Promise<string> {
    const { rows } = await test.db.pool.query(
      "INSERT INTO herald.users (external_id, email, phone, timezone) VALUES ($1, $2, $3, $4) RETURNING id::text",
      [name, fields.email ?? null, fields.phone ?? null, fields.timezone ?? null],
    );
    ids[name] = rows[0].id;
    return rows[0].id;
  }

  async function gate(tuple: Partial<GateTuple> & { userId: string }, now = NOW) {
    const [verdict] = await evaluateGates(
      test.db.pool,
      [{ channel: "email", category: "marketing", lane: "bulk", ...tuple }],
      now,
      "UTC",
    );
    return verdict!;
  }

  it("sends when nothing stands in the way, returning the address", async () => {
    await test.db.pool.query(`
      INSERT INTO herald.categories (key, label, mandatory, defaults) VALUES
        ('marketing', 'Marketing', false, '{"sms": false}'),
        ('security', 'Security', true, '{}')`);
    await test.db.pool.query("INSERT INTO herald.category_aliases VALUES ('promo', 'marketing')");
    const id = await user("open", { email: "open@example.com", phone: "+4915112345678" });
    expect(await gate({ userId: id })).toMatchObject({ verdict: "send", reason: null, address: "open@example.com" });
  });

  it("skips a category the user opted out of, through an alias too, and says when and how", async () => {
    const id = await user("opted-out", { email: "out@example.com" });
    await test.db.pool.query(
      "INSERT INTO herald.preferences (user_id, category, channel, enabled, source, changed_at) VALUES ($1, 'marketing', 'email', false, 'unsubscribe_link', '2026-11-02T09:00:00Z')",
      [id],
    );
    const verdict = await gate({ userId: id, category: "promo" });
    expect(verdict).toMatchObject({ verdict: "skip", reason: "category_disabled" });
    expect(verdict.detail).toMatchObject({
      category: "marketing",
      preference: { enabled: false, source: "unsubscribe_link", changedAt: "2026-11-02T09:00:00+00:00" },
    });
  });

  it("applies the category default when no preference exists, and ignores opt-outs of a mandatory category", async () => {
    const id = await user("defaults", { phone: "+4915112345679", email: "d@example.com" });
    expect(await gate({ userId: id, channel: "sms" })).toMatchObject({ verdict: "skip", reason: "category_disabled" });
    await test.db.pool.query(
      "INSERT INTO herald.preferences (user_id, category, channel, enabled, source) VALUES ($1, 'security', 'email', false, 'api')",
      [id],
    );
    expect(await gate({ userId: id, category: "security" })).toMatchObject({ verdict: "send" });
  });

  it("skips a suppressed address with the suppression's reason", async () => {
    const id = await user("bounced", { email: "gone@example.com" });
    await test.db.pool.query("INSERT INTO herald.suppressions (channel, address, reason, source) VALUES ('email', 'gone@example.com', 'hard_bounce', 'ses')");
    expect(await gate({ userId: id, category: "security" })).toMatchObject({ verdict: "skip", reason: "suppressed:hard_bounce" });
  });

  it("skips what it cannot reach: no email, no phone, no active device", async () => {
    const id = await user("bare");
    expect(await gate({ userId: id })).toMatchObject({ verdict: "skip", reason: "unreachable:email" });
    expect(await gate({ userId: id, channel: "sms", category: "security" })).toMatchObject({ reason: "unreachable:phone" });
    await test.db.pool.query("INSERT INTO herald.devices (user_id, token, platform, active, deactivated_reason) VALUES ($1, 'old-token', 'ios', false, 'unregistered')", [id]);
    expect(await gate({ userId: id, channel: "push" })).toMatchObject({ reason: "unreachable:device" });
    await test.db.pool.query("INSERT INTO herald.devices (user_id, token, platform) VALUES ($1, 'tok-a', 'android'), ($1, 'tok-b', 'ios')", [id]);
    expect(await gate({ userId: id, channel: "push" })).toMatchObject({ verdict: "send", tokens: ["tok-a", "tok-b"] });
  });

  it("defers to the end of quiet hours in the user's zone, and lets the critical lane through", async () => {
    const id = await user("sleeper", { email: "z@example.com", timezone: "Asia/Tokyo" });
    await test.db.pool.query("INSERT INTO herald.quiet_hours (user_id, start_time, end_time) VALUES ($1, '22:00', '08:00')", [id]);
    const verdict = await gate({ userId: id });
    expect(verdict).toMatchObject({ verdict: "defer", reason: "quiet_hours" });
    // 08:00 in Tokyo on Dec 1 is 23:00 UTC on Nov 30.
    expect(verdict.deferUntil?.toISOString()).toBe("2026-11-30T23:00:00.000Z");
    expect(verdict.detail).toMatchObject({ quietHours: { start: "22:00", end: "08:00", timezone: "Asia/Tokyo" } });
    expect(await gate({ userId: id, lane: "critical" })).toMatchObject({ verdict: "send" });
  });

  it("prefers a (category, channel) override to the default window", async () => {
    const id = await user("override", { email: "o@example.com", timezone: "Europe/Berlin" });
    await test.db.pool.query(
      `INSERT INTO herald.quiet_hours (user_id, category, channel, start_time, end_time) VALUES
         ($1, '*', '*', '22:00', '07:00'), ($1, 'marketing', 'email', '14:00', '18:00')`,
      [id],
    );
    const verdict = await gate({ userId: id });
    expect(verdict.reason).toBe("quiet_hours");
    expect(verdict.deferUntil?.toISOString()).toBe("2026-11-30T17:00:00.000Z");
    expect(await gate({ userId: id, channel: "push" })).toMatchObject({ reason: "unreachable:device" });
  });

  it("caps the frequency per (user, category, channel), deferring or skipping as configured", async () => {
    const id = await user("busy", { email: "b@example.com" });
    await test.db.pool.query(`UPDATE herald.categories SET frequency_cap = '{"max": 2, "windowSeconds": 3600, "action": "defer"}' WHERE key = 'marketing'`);
    const sent = ["2026-11-30T13:10:00Z", "2026-11-30T13:40:00Z"];
    for (const [i, at] of sent.entries()) {
      await test.db.pool.query(
        `INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, status, dispatch_state, content, sent_at)
         VALUES ($1, $2, 'promo', 'email', 'marketing', 'sent', 'done', '{}', $3)`,
        [`cap-${i}`, id, at],
      );
    }
    const deferred = await gate({ userId: id });
    expect(deferred).toMatchObject({ verdict: "defer", reason: "frequency_capped" });
    expect(deferred.deferUntil?.toISOString()).toBe("2026-11-30T14:10:00.000Z");
    await test.db.pool.query(`UPDATE herald.categories SET frequency_cap = '{"max": 2, "windowSeconds": 3600, "action": "skip"}' WHERE key = 'marketing'`);
    expect(await gate({ userId: id })).toMatchObject({ verdict: "skip", reason: "frequency_capped" });
    await test.db.pool.query("UPDATE herald.categories SET frequency_cap = NULL WHERE key = 'marketing'");
  });

  it("checks the gates in order: preference before suppression before reachability", async () => {
    const id = await user("everything", { email: "gone@example.com" });
    await test.db.pool.query(
      "INSERT INTO herald.preferences (user_id, category, channel, enabled, source) VALUES ($1, 'marketing', 'email', false, 'api')",
      [id],
    );
    expect((await gate({ userId: id })).reason).toBe("category_disabled");
    expect((await gate({ userId: id, category: "security" })).reason).toBe("suppressed:hard_bounce");
  });

  it("answers many tuples in one call, in input order", async () => {
    const verdicts = await evaluateGates(
      test.db.pool,
      [
        { userId: ids.open!, channel: "email", category: "marketing", lane: "bulk" },
        { userId: ids.bare!, channel: "email", category: "marketing", lane: "bulk" },
        { userId: ids["opted-out"]!, channel: "email", category: "marketing", lane: "bulk" },
      ],
      NOW,
      "UTC",
    );
    expect(verdicts.map((v) => v.reason)).toEqual([null, "unreachable:email", "category_disabled"]);
  });
});

describe("herald.local_to_instant", () => {
  const test = useTestDatabase();
  const instant = async (local: string, tz: string) =>
    (await test.db.pool.query<{ t: Date }>("SELECT herald.local_to_instant($1::timestamp, $2) AS t", [local, tz])).rows[0]!.t.toISOString();

  it("converts ordinary wall times", async () => {
    expect(await instant("2026-07-01 08:00", "Europe/Berlin")).toBe("2026-07-01T06:00:00.000Z");
    expect(await instant("2026-12-01 08:00", "Asia/Tokyo")).toBe("2026-11-30T23:00:00.000Z");
  });

  it("takes the moment a spring-forward gap ends for a wall time that never happens", async () => {
    expect(await instant("2026-03-29 02:30", "Europe/Berlin")).toBe("2026-03-29T01:00:00.000Z");
    expect(await instant("2026-03-08 02:30", "America/New_York")).toBe("2026-03-08T07:00:00.000Z");
  });

  it("takes the first occurrence of a fall-back wall time that happens twice", async () => {
    expect(await instant("2026-10-25 02:30", "Europe/Berlin")).toBe("2026-10-25T00:30:00.000Z");
    expect(await instant("2026-11-01 01:30", "America/New_York")).toBe("2026-11-01T05:30:00.000Z");
  });
});
