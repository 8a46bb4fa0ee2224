import { describe, expect, it, vi } from "vitest";
import { eventually } from "./support/rest.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery } from "./support/trpc-http.ts";

const PRO_WITH_EMAIL = { kind: "and", children: [{ kind: "has_email" }, { kind: "attribute", attribute: "plan", op: "eq", value: "pro" }] };

describe("broadcasts", () => {
  const server = useTestServer({ withWorkers: true, env: { HERALD_SANDBOX_DELIVERY_DELAY_MS: "50" } });
  let cookie = "";
  let segmentId = "";
  let nobodyId = "";

  async function setUp() {
    if (cookie) return;
    cookie = (await memberWithSession(server.database, "marketer")).cookie;
    const pool = server.database.pool;
    await pool.query("INSERT INTO herald.categories (key, label) VALUES ('marketing', 'Marketing')");
    await pool.query(
      `INSERT INTO herald.users (external_id, email, attributes)
       SELECT 'bc-' || i, 'bc-' || i || '@example.com', jsonb_build_object('plan', CASE WHEN i % 3 = 0 THEN 'free' ELSE 'pro' END)
         FROM generate_series(1, 60) i`,
    );
    const call = async (path: string, input: unknown) => {
      const r = await trpcMutation(server.url, path, input, { cookie });
      if (r.error) throw new Error(`${path}: ${r.error.message}`);
      return r.data;
    };
    await call("templates.create", { key: "sale", name: "Sale", channels: ["email", "sms"], defaultCategory: "marketing", defaultLocale: "en" });
    const body = (subject: string) => ({
      variables: [{ name: "data.code", type: "string", required: true, example: "X1" }],
      content: { en: { email: { subject, html: "<p>Use {{ data.code }}</p>" }, sms: { body: "Use {{ data.code }}" } } },
    });
    await call("templates.saveDraft", { key: "sale", body: body("Sale A") });
    await call("templates.publish", { key: "sale" });
    await call("templates.editVersion", { key: "sale", version: 1 });
    await call("templates.saveDraft", { key: "sale", body: body("Sale B") });
    await call("templates.publish", { key: "sale" });
    segmentId = (await call("segments.create", { name: "Pro with email", rule: PRO_WITH_EMAIL })).id;
    nobodyId = (await call("segments.create", { name: "Nobody", rule: { kind: "attribute", attribute: "plan", op: "eq", value: "enterprise" } })).id;
  }

  const compose = (overrides: Record<string, unknown> = {}) => ({
    name: "December sale",
    segmentId,
    templateKey: "sale",
    variants: [{ version: 1, percent: 50 }, { version: 2, percent: 50 }],
    channels: ["email"],
    category: "marketing",
    holdoutPercent: 10,
    data: { code: "XMAS" },
    ...overrides,
  });

  it("dry-runs, sends now through the sandbox, and reports per variant", async () => {
    await setUp();
    const created = await trpcMutation(server.url, "broadcasts.create", compose(), { cookie });
    expect(created.error).toBeNull();
    const id = created.data.id;

    const dry = await trpcQuery(server.url, "broadcasts.dryRun", { id }, { cookie });
    expect(dry.data.audience).toBe(40);
    const sendable = dry.data.rows.filter((r: { verdict: string }) => r.verdict === "send").reduce((n: number, r: { count: number }) => n + r.count, 0);
    expect(sendable + dry.data.heldOut).toBe(40);
    expect(dry.data.channels[0]).toMatchObject({ channel: "email", sendable });

    const scheduled = await trpcMutation(server.url, "broadcasts.schedule", { id, schedule: { kind: "now" } }, { cookie });
    expect(scheduled.error).toBeNull();
    const rows = await eventually(
      async () => (await server.database.pool.query("SELECT status, template_version FROM herald.notifications WHERE broadcast_id = $1", [id])).rows,
      (r) => r.length === sendable && r.every((n) => n.status !== "pending"),
      "every broadcast row settled",
    );
    expect(new Set(rows.map((r) => r.template_version))).toEqual(new Set([1, 2]));
    const { rows: held } = await server.database.pool.query("SELECT count(*)::int AS n FROM herald.broadcast_holdouts WHERE broadcast_id = $1", [id]);
    expect(held[0].n).toBe(dry.data.heldOut);

    const { rows: used } = await server.database.pool.query("SELECT last_used_at FROM herald.segments WHERE id = $1", [segmentId]);
    expect(used[0].last_used_at).not.toBeNull();

    // The watch follows a sending broadcast every few seconds (queued when sending started), so
    // it is marked sent without waiting for the minute's cron tick.
    await eventually(
      async () => (await trpcQuery(server.url, "broadcasts.get", { id }, { cookie })).data.broadcast.status,
      (status) => status === "sent",
      "the broadcast marked sent",
    );
    // The list carries each row's counters (one grouped query per page, no per-row polling).
    const list = await trpcQuery(server.url, "broadcasts.list", { limit: 10 }, { cookie });
    expect(list.data.items.find((b: { id: string }) => b.id === id).counters).toEqual({ targeted: sendable, pending: 0, sent: sendable, failed: 0, skipped: 0, progress: 1 });
    // The page's live counters: the funnel per channel, with no per-variant report computed on each poll.
    const live = await trpcQuery(server.url, "broadcasts.get", { id }, { cookie });
    expect(live.data.progress.total).toMatchObject({ targeted: sendable, sent: sendable, pending: 0 });
    expect(Object.keys(live.data.progress).sort()).toEqual(["byChannel", "total"]);

    const report = await trpcQuery(server.url, "broadcasts.report", { id, activity: "session_completed" }, { cookie });
    expect(report.data.broadcast.status).toBe("sent");
    expect(report.data.report.byVariant.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect(report.data.report.total.sent).toBe(sendable);
    expect(report.data.lift).toMatchObject({ holdout: { users: dry.data.heldOut, converted: 0 }, treated: { users: sendable } });
    expect(report.data.csv.split("\n")[0]).toBe("channel,variant,targeted,sent,delivered,opened,clicked,failed,skipped,canceled,pending");

    const edit = await trpcMutation(server.url, "broadcasts.update", { id, broadcast: compose({ name: "Renamed" }) }, { cookie });
    expect(edit.error?.data.code).toBe("CONFLICT");
  });

  it("schedules at a local time as a keyed job, and unscheduling removes it", async () => {
    await setUp();
    const id = (await trpcMutation(server.url, "broadcasts.create", compose(), { cookie })).data.id;
    const next = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const scheduled = await trpcMutation(server.url, "broadcasts.schedule", { id, schedule: { kind: "local", localDateTime: `${next}T09:00` } }, { cookie });
    expect(scheduled.error).toBeNull();
    // The earliest zone (UTC+14) reaches 09:00 first: 19:00 UTC the day before.
    expect(new Date(scheduled.data.startsAt).toISOString()).toBe(new Date(`${next}T09:00:00+14:00`).toISOString());
    const job = async () => (await server.database.pool.query("SELECT run_at FROM graphile_worker.jobs WHERE key = $1", [`broadcast:${id}`])).rows;
    expect(await job()).toHaveLength(1);
    expect((await trpcMutation(server.url, "broadcasts.unschedule", { id }, { cookie })).error).toBeNull();
    expect(await job()).toHaveLength(0);
    expect((await trpcQuery(server.url, "broadcasts.get", { id }, { cookie })).data.broadcast.status).toBe("draft");
    const drafts = await trpcQuery(server.url, "broadcasts.list", { status: "draft" }, { cookie });
    expect(drafts.data.items.find((b: { id: string }) => b.id === id).counters).toEqual({ targeted: 0, pending: 0, sent: 0, failed: 0, skipped: 0, progress: null });
  });

  it("refuses bad schedules and compositions with a clear reason", async () => {
    await setUp();
    const refusal = async (path: string, input: unknown) => (await trpcMutation(server.url, path, input, { cookie })).error?.message ?? "accepted";
    expect(await refusal("broadcasts.create", compose({ variants: [{ version: 1, percent: 60 }, { version: 2, percent: 30 }] }))).toMatch(/sum to 100/);
    expect(await refusal("broadcasts.create", compose({ variants: [{ version: 7, percent: 100 }] }))).toMatch(/version 7 of "sale" is not published/);
    expect(await refusal("broadcasts.create", compose({ channels: [] }))).toMatch(/at least one channel/);
    expect(await refusal("broadcasts.create", compose({ channels: ["push"] }))).toMatch(/no push content/);
    const id = (await trpcMutation(server.url, "broadcasts.create", compose(), { cookie })).data.id;
    expect(await refusal("broadcasts.schedule", { id, schedule: { kind: "at", at: "2020-01-01T00:00:00Z", timezone: "UTC" } })).toMatch(/in the past/);
    expect(await refusal("broadcasts.schedule", { id, schedule: { kind: "at", at: "2099-01-01T00:00:00Z", timezone: "Mars/Base" } })).toMatch(/time zone/);
    const empty = (await trpcMutation(server.url, "broadcasts.create", compose({ segmentId: nobodyId }), { cookie })).data.id;
    expect(await refusal("broadcasts.schedule", { id: empty, schedule: { kind: "now" } })).toMatch(/matches nobody/);
    expect(await refusal("broadcasts.pause", { id })).toMatch(/only while sending/);
  });

  it("dry-runs an ETA from each provider's rate and the throttle, SMS segments × recipients, and an empty audience as such", async () => {
    await setUp();
    const id = (await trpcMutation(server.url, "broadcasts.create", compose({ channels: ["email", "sms"], holdoutPercent: 0, throttlePerMinute: 600 }), { cookie })).data.id;
    const dry = (await trpcQuery(server.url, "broadcasts.dryRun", { id }, { cookie })).data;
    expect(dry.audience).toBe(40);
    const email = dry.channels.find((c: { channel: string }) => c.channel === "email");
    const sms = dry.channels.find((c: { channel: string }) => c.channel === "sms");
    // The sandbox's buckets; the pro users have an email and no phone, so no SMS goes out.
    expect(email).toMatchObject({ sendable: 40, provider: expect.any(String), ratePerSecond: expect.any(Number) });
    expect(email.ratePerSecond).toBeGreaterThan(0);
    // 40 sends at 600 a minute take 4 s; the provider alone would be faster: the throttle wins.
    expect(email.etaSeconds).toBeCloseTo(Math.max(40 / email.ratePerSecond, 4), 6);
    expect(sms).toMatchObject({ sendable: 0, etaSeconds: 0 });
    // "Use XMAS": one GSM-7 segment per message, times the recipients who would get one.
    expect(dry.sms).toEqual({ segmentsPerMessage: 1, encoding: "GSM-7", totalSegments: 0 });

    await server.database.pool.query("UPDATE herald.users SET phone = '+4915100000' || lpad(substr(external_id, 4), 3, '0') WHERE external_id LIKE 'bc-%'");
    try {
      const withPhones = (await trpcQuery(server.url, "broadcasts.dryRun", { id }, { cookie })).data;
      expect(withPhones.sms).toEqual({ segmentsPerMessage: 1, encoding: "GSM-7", totalSegments: 40 });
      expect(withPhones.channels.find((c: { channel: string }) => c.channel === "sms").etaSeconds).toBeCloseTo(4, 6);
    } finally {
      await server.database.pool.query("UPDATE herald.users SET phone = NULL WHERE external_id LIKE 'bc-%'");
    }

    const nobody = (await trpcMutation(server.url, "broadcasts.create", compose({ segmentId: nobodyId }), { cookie })).data.id;
    expect((await trpcQuery(server.url, "broadcasts.dryRun", { id: nobody }, { cookie })).data).toMatchObject({ audience: 0, sendable: 0, heldOut: 0, rows: [] });
  });

  it("starts at its instant through its run_at, and sends to the segment as it is then, frozen for the rest of the broadcast", async () => {
    await setUp();
    const call = async (path: string, input: unknown) => {
      const r = await trpcMutation(server.url, path, input, { cookie });
      if (r.error) throw new Error(`${path}: ${r.error.message}`);
      return r.data;
    };
    const FREE_WITH_EMAIL = { kind: "and", children: [{ kind: "has_email" }, { kind: "attribute", attribute: "plan", op: "eq", value: "free" }] };
    const segment = (await call("segments.create", { name: "Snapshot", rule: PRO_WITH_EMAIL })).id;
    const id = (await call("broadcasts.create", compose({ segmentId: segment, holdoutPercent: 0, variants: [{ version: 1, percent: 100 }] }))).id;
    // Far enough ahead that the edit below lands first, however busy the machine.
    const at = new Date(Date.now() + 8_000);
    await call("broadcasts.schedule", { id, schedule: { kind: "at", at: at.toISOString(), timezone: "Europe/Berlin" } });
    const { rows: jobs } = await server.database.pool.query("SELECT run_at FROM graphile_worker.jobs WHERE key = $1", [`broadcast:${id}`]);
    expect(jobs.map((j) => (j.run_at as Date).toISOString())).toEqual([at.toISOString()]);
    // Edited while scheduled: membership is read when sending starts, so the edit counts.
    await call("segments.update", { id: segment, rule: FREE_WITH_EMAIL });

    const sent = await eventually(
      async () => (await trpcQuery(server.url, "broadcasts.get", { id }, { cookie })).data.broadcast,
      (b) => b.status === "sent",
      "the broadcast sent",
    );
    expect(new Date(sent.startedAt).getTime()).toBeGreaterThanOrEqual(at.getTime());
    expect(sent.segmentRule).toEqual(FREE_WITH_EMAIL);
    const { rows } = await server.database.pool.query("SELECT count(*)::int AS n FROM herald.notifications WHERE broadcast_id = $1", [id]);
    expect(rows[0].n).toBe(20);

    // Edited after it started: the broadcast keeps its snapshot, and so do its dry run and report.
    await call("segments.update", { id: segment, rule: PRO_WITH_EMAIL });
    const after = await trpcQuery(server.url, "broadcasts.get", { id }, { cookie });
    expect(after.data.broadcast.segmentRule).toEqual(FREE_WITH_EMAIL);
    expect((await trpcQuery(server.url, "broadcasts.dryRun", { id }, { cookie })).data.audience).toBe(20);
  });

  it("counts each recipient's problem and still finishes: a rejected number dead, an address suppressed after the fan-out skipped", async () => {
    await setUp();
    const pool = server.database.pool;
    await pool.query(
      `INSERT INTO herald.users (external_id, email, phone, attributes)
       SELECT 'trial-' || i, 'trial-' || i || '@example.com', CASE WHEN i = 3 THEN '+15005550001' ELSE '+4915200000' || lpad(i::text, 3, '0') END, '{"plan": "trial"}'
         FROM generate_series(1, 10) i`,
    );
    const call = async (path: string, input: unknown) => {
      const r = await trpcMutation(server.url, path, input, { cookie });
      if (r.error) throw new Error(`${path}: ${r.error.message}`);
      return r.data;
    };
    const segment = (await call("segments.create", { name: "Trials", rule: { kind: "attribute", attribute: "plan", op: "eq", value: "trial" } })).id;
    // 20 sends at 10 a minute: a throttle fills whole minutes, so half the rows are due a minute
    // after the start, long after the fan-out.
    const id = (await call("broadcasts.create", compose({ segmentId: segment, channels: ["email", "sms"], holdoutPercent: 0, throttlePerMinute: 10, variants: [{ version: 1, percent: 100 }] }))).id;
    await call("broadcasts.schedule", { id, schedule: { kind: "now" } });
    const last = await eventually(
      async () =>
        (
          await pool.query<{ address: string; due_in_s: number; n: number }>(
            `SELECT (SELECT u.email FROM herald.notifications n JOIN herald.users u ON u.id = n.user_id
                      WHERE n.broadcast_id = $1 AND n.channel = 'email' ORDER BY n.next_attempt_at DESC LIMIT 1) AS address,
                    (SELECT extract(epoch FROM max(next_attempt_at) - now())::float8 FROM herald.notifications WHERE broadcast_id = $1) AS due_in_s,
                    (SELECT count(*)::int FROM herald.notifications WHERE broadcast_id = $1) AS n`,
            [id],
          )
        ).rows[0]!,
      (r) => r.n === 20,
      "the fan-out written",
    );
    // Suppressed after its row was written and before it is due: the gates at send time skip it.
    expect(last.due_in_s, "the last row is still seconds from due").toBeGreaterThan(3);
    await pool.query("INSERT INTO herald.suppressions (channel, address, reason, source) VALUES ('email', $1, 'manual', 'test')", [last.address]);

    const done = await eventually(
      async () => (await trpcQuery(server.url, "broadcasts.get", { id }, { cookie })).data,
      (d) => d.broadcast.status === "sent",
      "the broadcast sent",
      100_000,
    );
    expect(done.progress.total).toMatchObject({ targeted: 20, sent: 18, failed: 1, pending: 0 });
    const { rows } = await pool.query(
      `SELECT n.channel, n.status, n.reason, u.external_id FROM herald.notifications n JOIN herald.users u ON u.id = n.user_id
        WHERE n.broadcast_id = $1 AND n.status NOT IN ('sent', 'delivered') ORDER BY n.channel`,
      [id],
    );
    expect(rows).toEqual([
      { channel: "email", status: "skipped", reason: "suppressed:manual", external_id: expect.stringMatching(/^trial-/) },
      { channel: "sms", status: "dead", reason: expect.stringContaining("21211"), external_id: "trial-3" },
    ]);
    const list = await trpcQuery(server.url, "broadcasts.list", { limit: 20 }, { cookie });
    expect(list.data.items.find((b: { id: string }) => b.id === id).counters).toMatchObject({ targeted: 20, failed: 1, skipped: 1, pending: 0 });
  }, 150_000);
});

describe("a broadcast scheduled through an API host whose clock is ten minutes fast", () => {
  const server = useTestServer();

  it("starts 'now' at the database's now, where the workers and the pump read time", async () => {
    const { cookie } = await memberWithSession(server.database, "marketer");
    const call = async (path: string, input: unknown) => {
      const r = await trpcMutation(server.url, path, input, { cookie });
      if (r.error) throw new Error(`${path}: ${r.error.message}`);
      return r.data;
    };
    await server.database.pool.query(`
      INSERT INTO herald.categories (key, label) VALUES ('marketing', 'Marketing');
      INSERT INTO herald.users (external_id, email) SELECT 'skew-' || i, 'skew-' || i || '@example.com' FROM generate_series(1, 5) i;`);
    await call("templates.create", { key: "hello", name: "Hello", channels: ["email"], defaultCategory: "marketing", defaultLocale: "en" });
    await call("templates.saveDraft", { key: "hello", body: { variables: [], content: { en: { email: { subject: "Hi", html: "<p>Hi</p>" } } } } });
    await call("templates.publish", { key: "hello" });
    const segmentId = (await call("segments.create", { name: "Everyone with email", rule: { kind: "has_email" } })).id;
    const id = (await call("broadcasts.create", { name: "Skewed", segmentId, templateKey: "hello", variants: [{ version: 1, percent: 100 }], channels: ["email"], category: "marketing", holdoutPercent: 0, data: {} })).id;

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10 * 60_000 });
    let startsAt: string;
    try {
      startsAt = (await call("broadcasts.schedule", { id, schedule: { kind: "now" } })).startsAt;
    } finally {
      vi.useRealTimers();
    }
    const { rows } = await server.database.pool.query(
      "SELECT extract(epoch FROM run_at - now())::float8 AS due_in_s FROM graphile_worker.jobs WHERE key = $1",
      [`broadcast:${id}`],
    );
    expect(rows).toHaveLength(1);
    expect(Math.abs(rows[0].due_in_s)).toBeLessThan(5);
    expect(Math.abs(new Date(startsAt).getTime() - Date.now())).toBeLessThan(5_000);
  });
});
