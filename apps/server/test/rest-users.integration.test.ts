import { beforeAll, describe, expect, it } from "vitest";
import { rest } from "./support/rest.ts";
import { countRows, withoutWrites } from "./support/table-snapshot.ts";
import { useTestServer } from "./support/test-server.ts";

// Users, devices, activities, preferences and quiet hours over REST (docs/api.md).

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe("users, devices and activities", () => {
  const server = useTestServer();
  let events: string;

  beforeAll(async () => {
    events = await server.apiKey("events");
  });

  it("creates a user, then merges top-level fields and attributes; null deletes a field or an attribute", async () => {
    const created = await rest(server.url, "PUT", "/users/u-1", events, {
      email: "  Ada@Example.COM ",
      phone: "+4915112345678",
      timezone: "europe/berlin",
      locale: "en-us",
      attributes: { name: "Ada", plan: "pro", seats: 3, beta: true, tags: ["a", "b"] },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      user: {
        id: "u-1",
        email: "ada@example.com",
        phone: "+4915112345678",
        timezone: "Europe/Berlin",
        locale: "en-US",
        attributes: { name: "Ada", plan: "pro", seats: 3, beta: true, tags: ["a", "b"] },
        createdAt: ISO,
        updatedAt: ISO,
      },
    });

    const merged = await rest(server.url, "PUT", "/users/u-1", events, { locale: "de", attributes: { seats: 4, company: "ACME" } });
    expect(merged.status).toBe(200);
    expect(merged.body.user).toMatchObject({
      email: "ada@example.com",
      phone: "+4915112345678",
      timezone: "Europe/Berlin",
      locale: "de",
      attributes: { name: "Ada", plan: "pro", seats: 4, beta: true, tags: ["a", "b"], company: "ACME" },
    });

    const deleted = await rest(server.url, "PUT", "/users/u-1", events, { phone: null, attributes: { beta: null, nonexistent: null } });
    expect(deleted.status).toBe(200);
    expect(deleted.body.user).toMatchObject({ email: "ada@example.com", phone: null, attributes: { name: "Ada", plan: "pro", seats: 4, tags: ["a", "b"], company: "ACME" } });
    const { rows } = await server.database.pool.query("SELECT phone, attributes FROM herald.users WHERE external_id = 'u-1'");
    expect(rows).toEqual([{ phone: null, attributes: { name: "Ada", plan: "pro", seats: 4, tags: ["a", "b"], company: "ACME" } }]);

    const unchanged = await rest(server.url, "PUT", "/users/u-1", events, {});
    expect(unchanged.body.user).toEqual({ ...deleted.body.user, updatedAt: ISO });
  });

  it("stores SQL-looking text literally", async () => {
    const id = "'); DROP TABLE herald.users; --";
    const attack = { note: "1'; DELETE FROM herald.devices WHERE ''='", "a.b": "$1 OR 1=1" };
    const put = await rest(server.url, "PUT", `/users/${encodeURIComponent(id)}`, events, { attributes: attack });
    expect(put.status).toBe(200);
    expect(put.body.user).toMatchObject({ id, attributes: attack });
    const { rows } = await server.database.pool.query("SELECT external_id, attributes FROM herald.users WHERE external_id = $1", [id]);
    expect(rows).toEqual([{ external_id: id, attributes: attack }]);
    expect(await countRows(server.database.pool, "users")).toBeGreaterThan(0);
  });

  it("registers a device (201, then 200), moves it to whoever registers it next and reactivates it", async () => {
    const first = await rest(server.url, "POST", "/users/d-1/devices", events, { token: "tok-1", platform: "ios" });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      device: { token: "tok-1", platform: "ios", active: true, deactivatedReason: null, deactivatedAt: null, createdAt: ISO, updatedAt: ISO },
    });
    const again = await rest(server.url, "POST", "/users/d-1/devices", events, { token: "tok-1", platform: "ios" });
    expect(again.status).toBe(200);
    expect(again.body.device).toMatchObject({ token: "tok-1", active: true, createdAt: first.body.device.createdAt });

    const removed = await rest(server.url, "DELETE", "/users/d-1/devices/tok-1", events);
    expect(removed.status).toBe(204);
    expect(removed.body).toBeNull();
    const owner = () =>
      server.database.pool
        .query(
          `SELECT u.external_id, d.platform, d.active, d.deactivated_reason, d.deactivated_at IS NOT NULL AS has_deactivated_at
             FROM herald.devices d JOIN herald.users u ON u.id = d.user_id WHERE d.token = 'tok-1'`,
        )
        .then((r) => r.rows);
    // Deactivated, never deleted.
    expect(await owner()).toEqual([{ external_id: "d-1", platform: "ios", active: false, deactivated_reason: "unregistered_by_client", has_deactivated_at: true }]);

    // A shared tablet changes hands: the token moves to d-2 and is active again.
    const moved = await rest(server.url, "POST", "/users/d-2/devices", events, { token: "tok-1", platform: "android" });
    expect(moved.status).toBe(200);
    expect(moved.body.device).toMatchObject({ token: "tok-1", platform: "android", active: true, deactivatedReason: null, deactivatedAt: null });
    expect(await owner()).toEqual([{ external_id: "d-2", platform: "android", active: true, deactivated_reason: null, has_deactivated_at: false }]);

    // d-1 no longer holds the token; an unknown token is 404 too. Neither writes anything.
    for (const path of ["/users/d-1/devices/tok-1", "/users/d-2/devices/no-such-token", "/users/nobody/devices/tok-1"]) {
      const missing = await withoutWrites(server.database.pool, () => rest(server.url, "DELETE", path, events));
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: { code: "not_found", message: "This user has no such device token" } });
    }
  });

  it("deletes a token holding URL-reserved characters when it is URL-encoded", async () => {
    const token = "fcm:APA91b/abc+def=?x y#z";
    expect((await rest(server.url, "POST", "/users/d-3/devices", events, { token, platform: "web" })).status).toBe(201);
    expect((await rest(server.url, "DELETE", `/users/d-3/devices/${encodeURIComponent(token)}`, events)).status).toBe(204);
    const { rows } = await server.database.pool.query("SELECT active FROM herald.devices WHERE token = $1", [token]);
    expect(rows).toEqual([{ active: false }]);
  });

  it("records activities with 202, once per id when an id is given", async () => {
    const activity = { id: "act-1", name: "session_completed", properties: { minutes: 12 }, occurredAt: "2026-11-29T08:00:00Z" };
    const first = await rest(server.url, "POST", "/users/a-1/activities", events, activity);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ recorded: true });
    const retried = await rest(server.url, "POST", "/users/a-1/activities", events, activity);
    expect(retried.status).toBe(202);
    expect(retried.body).toEqual({ recorded: false });

    // Without an id every post is a new activity.
    for (let i = 0; i < 2; i++) expect((await rest(server.url, "POST", "/users/a-1/activities", events, { name: "app_opened" })).status).toBe(202);
    const { rows } = await server.database.pool.query(
      `SELECT a.name, a.activity_key, a.properties, a.occurred_at FROM herald.activities a JOIN herald.users u ON u.id = a.user_id
        WHERE u.external_id = 'a-1' ORDER BY a.id`,
    );
    expect(rows).toEqual([
      { name: "session_completed", activity_key: "act-1", properties: { minutes: 12 }, occurred_at: new Date("2026-11-29T08:00:00Z") },
      { name: "app_opened", activity_key: null, properties: {}, occurred_at: expect.any(Date) },
      { name: "app_opened", activity_key: null, properties: {}, occurred_at: expect.any(Date) },
    ]);
  });
});

describe("preferences and quiet hours", () => {
  const server = useTestServer();
  let events: string;

  beforeAll(async () => {
    const admin = await server.apiKey("admin");
    await rest(server.url, "PUT", "/categories/marketing", admin, { label: "Marketing", defaults: { email: false }, aliases: ["promo"] });
    await rest(server.url, "PUT", "/categories/security", admin, { label: "Security", mandatory: true, defaults: { sms: false } });
    events = await server.apiKey("events");
  });

  const row = (category: string, channel: string, enabled: boolean, mandatory: boolean, source = "default") => ({
    category,
    channel,
    enabled,
    mandatory,
    source,
    changedAt: source === "default" ? null : ISO,
  });

  it("answers the resolved matrix: every category on every channel, defaults and mandatory categories included", async () => {
    const matrix = await rest(server.url, "GET", "/users/p-1/preferences", events);
    expect(matrix.status).toBe(200);
    expect(matrix.body).toEqual({
      preferences: [
        row("marketing", "push", true, false),
        row("marketing", "email", false, false),
        row("marketing", "sms", true, false),
        // Mandatory categories are always on, whatever their defaults say.
        row("security", "push", true, true),
        row("security", "email", true, true),
        row("security", "sms", true, true),
      ],
    });
    // Reading never creates the user.
    expect(await countRows(server.database.pool, "users")).toBe(0);
  });

  it("stores choices through an alias, marks them source api, and answers the new matrix", async () => {
    const put = await rest(server.url, "PUT", "/users/p-1/preferences", events, {
      preferences: [
        { category: "promo", channel: "push", enabled: false },
        { category: "marketing", channel: "email", enabled: true },
        { category: "security", channel: "push", enabled: true },
      ],
    });
    expect(put.status).toBe(200);
    expect(put.body.preferences).toEqual([
      row("marketing", "push", false, false, "api"),
      row("marketing", "email", true, false, "api"),
      row("marketing", "sms", true, false),
      row("security", "push", true, true, "api"),
      row("security", "email", true, true),
      row("security", "sms", true, true),
    ]);
    expect((await rest(server.url, "GET", "/users/p-1/preferences", events)).body).toEqual(put.body);
    const { rows } = await server.database.pool.query("SELECT category, channel, enabled, source FROM herald.preferences ORDER BY category, channel");
    expect(rows).toEqual([
      { category: "marketing", channel: "email", enabled: true, source: "api" },
      { category: "marketing", channel: "push", enabled: false, source: "api" },
      { category: "security", channel: "push", enabled: true, source: "api" },
    ]);
  });

  it("refuses to switch off a mandatory category (422 mandatory_category) and an unknown category (422), writing nothing", async () => {
    const pool = server.database.pool;
    const mandatory = await withoutWrites(pool, () =>
      rest(server.url, "PUT", "/users/p-2/preferences", events, {
        preferences: [
          { category: "marketing", channel: "push", enabled: false },
          { category: "security", channel: "email", enabled: false },
        ],
      }),
    );
    expect(mandatory.status).toBe(422);
    expect(mandatory.body).toEqual({
      error: { code: "mandatory_category", message: "Mandatory categories cannot be switched off: security", details: { categories: ["security"] } },
    });

    const unknown = await withoutWrites(pool, () =>
      rest(server.url, "PUT", "/users/p-2/preferences", events, { preferences: [{ category: "ghosts", channel: "sms", enabled: false }] }),
    );
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ error: { code: "unknown_category", message: "Unknown category: ghosts", details: { categories: ["ghosts"] } } });
  });

  it("sets quiet hours, replaces them (overrides included), and removes them with null", async () => {
    const stored = () =>
      server.database.pool
        .query(
          `SELECT q.category, q.channel, to_char(q.start_time, 'HH24:MI') AS start, to_char(q.end_time, 'HH24:MI') AS end, q.timezone
             FROM herald.quiet_hours q JOIN herald.users u ON u.id = q.user_id WHERE u.external_id = 'q-1' ORDER BY q.category, q.channel`,
        )
        .then((r) => r.rows);

    const set = await rest(server.url, "PUT", "/users/q-1/quiet-hours", events, { start: "22:00", end: "08:00", timezone: "america/new_york" });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ quietHours: { start: "22:00", end: "08:00", timezone: "America/New_York" } });
    expect(await stored()).toEqual([{ category: "*", channel: "*", start: "22:00", end: "08:00", timezone: "America/New_York" }]);

    const withOverride = {
      start: "23:00",
      end: "07:30",
      overrides: [{ category: "marketing", channel: "push", start: "20:00", end: "09:00" }],
    };
    const replaced = await rest(server.url, "PUT", "/users/q-1/quiet-hours", events, withOverride);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ quietHours: withOverride });
    expect(await stored()).toEqual([
      { category: "*", channel: "*", start: "23:00", end: "07:30", timezone: null },
      { category: "marketing", channel: "push", start: "20:00", end: "09:00", timezone: null },
    ]);

    const plain = await rest(server.url, "PUT", "/users/q-1/quiet-hours", events, { start: "21:00", end: "06:00" });
    expect(plain.status).toBe(200);
    expect(await stored()).toEqual([{ category: "*", channel: "*", start: "21:00", end: "06:00", timezone: null }]);

    const removed = await rest(server.url, "PUT", "/users/q-1/quiet-hours", events, null);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ quietHours: null });
    expect(await stored()).toEqual([]);
  });

  it("refuses quiet hours that are not clock times or have no length, writing nothing", async () => {
    await rest(server.url, "PUT", "/users/q-2/quiet-hours", events, { start: "22:00", end: "08:00" });
    const cases: Array<[unknown, string]> = [
      [{ start: "25:00", end: "08:00" }, "start"],
      [{ start: "22:00", end: "22:00" }, "end"],
      [{ start: "22:00", end: "08:00", timezone: "Mars/Olympus_Mons" }, "timezone"],
      [{ start: "22:00", end: "08:00", overrides: [{ category: "marketing", channel: "fax", start: "20:00", end: "09:00" }] }, "overrides.0.channel"],
      ["22:00-08:00", ""],
    ];
    for (const [body, path] of cases) {
      const refused = await withoutWrites(server.database.pool, () => rest(server.url, "PUT", "/users/q-2/quiet-hours", events, JSON.stringify(body)));
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe("invalid_request");
      expect(refused.body.error.details.fields[0].path).toBe(path);
    }
  });
});
