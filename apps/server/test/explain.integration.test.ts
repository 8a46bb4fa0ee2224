import { ingestEvents } from "@herald/db";
import { beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./support/rest.ts";
import { seedSupportWorkspace } from "@herald/db/testing";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery } from "./support/trpc-http.ts";

interface Explained {
  channel: string;
  outcome: string;
  reason: string | null;
  deferUntil: string | null;
  headline: string;
  steps: Array<{ step: string; outcome: string; words: string }>;
}

describe("Explain: the engine's gates for one user, in words, agreeing with real sends", () => {
  // Real workers and the sandbox providers: the sends below go through the dispatcher.
  const server = useTestServer({ withWorkers: true, env: { HERALD_SANDBOX_DELIVERY_DELAY_MS: "50" } });
  let support = "";

  beforeAll(async () => {
    support = (await memberWithSession(server.database, "support")).cookie;
    await seedSupportWorkspace(server.database.pool);
  });

  async function explain(userId: string, subject: Record<string, unknown>, cookie = support): Promise<Explained[]> {
    const result = await trpcQuery(server.url, "users.explain", { userId, subject }, { cookie });
    expect(result.error).toBeNull();
    return result.data.explanations;
  }

  it("says an opt-out through the unsubscribe link, and who would carry the other channels", async () => {
    const [email, sms, push] = await explain("ada", { kind: "type", type: "promo.weekly" });
    expect(email!.headline).toMatch(/^Email: skipped — opted out of marketing email on \d{4}-\d{2}-\d{2} through the unsubscribe link$/);
    expect(email!.reason).toBe("category_disabled");
    expect(sms!.headline).toBe("SMS: would send to +4915112345678 through the sandbox");
    expect(push!.headline).toBe("Push: would send to their device through the sandbox");
    expect(push!.steps.find((s) => s.step === "reachability")!.words).toBe("1 active device");
  });

  it("says a mandatory category overrides an old opt-out", async () => {
    const [email] = await explain("ada", { kind: "type", type: "security.login" });
    expect(email!.outcome).toBe("send");
    expect(email!.steps[0]!.words).toMatch(/^security is mandatory: their opt-out of security email on \d{4}-\d{2}-\d{2} through the API does not apply$/);
  });

  it("says suppressions with their cause, and a missing device", async () => {
    const [email, sms, push] = await explain("bob", { kind: "type", type: "promo.weekly" });
    expect(email!.headline).toMatch(/^Email: skipped — bob@example\.com is suppressed after a hard bounce on \d{4}-\d{2}-\d{2} \(ses\)$/);
    expect(sms!.headline).toMatch(/^SMS: skipped — \+4917000000001 is suppressed after a STOP reply on .* \(twilio\)$/);
    expect(push!.headline).toBe("Push: skipped — no active device");
  });

  it("says a quiet-hours deferral and when it ends, and a missing phone", async () => {
    const [email, sms] = await explain("cleo", { kind: "type", type: "promo.weekly" });
    expect(email!.outcome).toBe("defer");
    expect(email!.headline).toMatch(/^Email: deferred to (\d{4}-\d{2}-\d{2} )?\d{2}:00 UTC — quiet hours \(\d{2}:00–\d{2}:00\)$/);
    expect(sms!.headline).toBe("SMS: skipped — no phone number");
    // The critical lane is not held by quiet hours.
    const [critical] = await explain("cleo", { kind: "category", category: "marketing", channel: "email", lane: "critical" });
    expect(critical!.outcome).toBe("send");
  });

  it("says a frequency cap once the category's window is full", async () => {
    await server.database.pool.query(
      `INSERT INTO herald.notifications (dedup_key, user_id, type, channel, category, content, status, dispatch_state, sent_at)
       SELECT 'capped-1', id, 'digest.daily', 'email', 'digest', '{"subject": "s", "body": "b"}', 'sent', 'done', now() - interval '1 hour'
         FROM herald.users WHERE external_id = 'ada'`,
    );
    const [email] = await explain("ada", { kind: "category", category: "digest", channel: "email" });
    expect(email!.headline).toBe("Email: skipped — the digest frequency cap is reached (1 sent in its window)");
  });

  it("refuses an unknown type, an unknown user and a marketer", async () => {
    const unknownType = await trpcQuery(server.url, "users.explain", { userId: "ada", subject: { kind: "type", type: "no.such" } }, { cookie: support });
    expect(unknownType.error).toMatchObject({ message: 'No notification type is called "no.such"', data: { code: "NOT_FOUND" } });
    const badSubject = await trpcQuery(server.url, "users.explain", { userId: "ada", subject: { kind: "category", category: "marketing", channel: "pigeon" } }, { cookie: support });
    expect(badSubject.error).toMatchObject({ data: { code: "BAD_REQUEST" }, message: expect.stringContaining("subject.channel") });
    const unknownUser = await trpcQuery(server.url, "users.explain", { userId: "zed", subject: { kind: "type", type: "promo.weekly" } }, { cookie: support });
    expect(unknownUser.error?.data.code).toBe("NOT_FOUND");
    const marketer = (await memberWithSession(server.database, "marketer")).cookie;
    const refused = await trpcQuery(server.url, "users.explain", { userId: "ada", subject: { kind: "type", type: "promo.weekly" } }, { cookie: marketer });
    expect(refused.error?.data.code).toBe("FORBIDDEN");
  });

  it("agrees with what the dispatcher then does to real events for the same tuples", async () => {
    const cases = [
      { userId: "ada", type: "promo.weekly" },
      { userId: "ada", type: "security.login" },
      { userId: "bob", type: "promo.weekly" },
      { userId: "cleo", type: "promo.weekly" },
      { userId: "dan", type: "promo.weekly" },
    ];
    const predicted = new Map<string, Explained>();
    for (const c of cases) {
      for (const e of await explain(c.userId, { kind: "type", type: c.type })) predicted.set(`${c.userId}/${c.type}/${e.channel}`, e);
    }
    await ingestEvents(
      server.database.pool,
      cases.map((c, i) => ({ eventId: `agree-${i}`, type: c.type, userId: c.userId, data: {} })),
    );
    server.workers?.nudgePump();
    const { rows } = await eventually(
      () =>
        server.database.pool.query<{ key: string; status: string; dispatch_state: string; reason: string | null; next_attempt_at: Date }>(
          `SELECT u.external_id || '/' || n.type || '/' || n.channel AS key, n.status, n.dispatch_state, n.reason, n.next_attempt_at
             FROM herald.notifications n JOIN herald.users u ON u.id = n.user_id
            WHERE n.dedup_key LIKE 'agree-%'`,
        ),
      (r) => r.rows.length === predicted.size && r.rows.every((n) => n.status !== "pending" || n.dispatch_state === "deferred"),
      "every notification decided",
    );
    const actual = Object.fromEntries(
      rows.map((n) => [n.key, n.dispatch_state === "deferred" ? `defer:${n.reason}` : n.status === "skipped" ? `skip:${n.reason}` : "send"]),
    );
    const expected = Object.fromEntries([...predicted].map(([key, e]) => [key, e.outcome === "send" ? "send" : `${e.outcome}:${e.reason}`]));
    expect(actual).toEqual(expected);
    // Spelled out, so that the agreement is not two empty maps.
    expect(expected).toMatchObject({
      "ada/promo.weekly/email": "skip:category_disabled",
      "ada/promo.weekly/sms": "send",
      "ada/security.login/email": "send",
      "bob/promo.weekly/email": "skip:suppressed:hard_bounce",
      "bob/promo.weekly/sms": "skip:suppressed:stop",
      "cleo/promo.weekly/email": "defer:quiet_hours",
      "dan/promo.weekly/push": "skip:unreachable:device",
    });
    const deferred = rows.find((n) => n.key === "cleo/promo.weekly/email")!;
    expect(deferred.next_attempt_at.toISOString()).toBe(predicted.get("cleo/promo.weekly/email")!.deferUntil);
  });

  it("resends a notification as a new one through the gates: skipped once the user opted out", async () => {
    const admin = (await memberWithSession(server.database, "admin")).cookie;
    const viewer = (await memberWithSession(server.database, "viewer")).cookie;
    const { rows } = await server.database.pool.query<{ id: string }>(
      "SELECT id::text FROM herald.notifications WHERE dedup_key = 'agree-0:' || (SELECT id FROM herald.users WHERE external_id = 'ada') || ':sms'",
    );
    const original = rows[0]!.id;

    expect((await trpcMutation(server.url, "notifications.resend", { id: original }, { cookie: viewer })).error?.data.code).toBe("FORBIDDEN");
    expect((await trpcMutation(server.url, "notifications.resend", { id: "99999999" }, { cookie: support })).error?.data.code).toBe("NOT_FOUND");
    expect((await trpcMutation(server.url, "notifications.resend", { id: "abc" }, { cookie: support })).error).toMatchObject({
      data: { code: "BAD_REQUEST" },
      message: "id: must be a notification id (digits)",
    });

    const sent = await trpcMutation(server.url, "notifications.resend", { id: original }, { cookie: support });
    expect(sent.error).toBeNull();
    server.workers?.nudgePump();
    await eventually(
      () => trpcQuery(server.url, "notifications.userHistory", { userId: "ada", channel: "sms", status: "delivered" }, { cookie: support }),
      (r) => r.data.items.some((n: { id: string }) => n.id === sent.data.id),
      "the first resend delivered",
    );
    // Ada opts out of marketing SMS before a second resend: that one is skipped like any send.
    await trpcMutation(server.url, "users.setPreference", { userId: "ada", category: "marketing", channel: "sms", enabled: false }, { cookie: admin });
    const skipped = await trpcMutation(server.url, "notifications.resend", { id: original }, { cookie: support });
    server.workers?.nudgePump();

    const history = await eventually(
      () => trpcQuery(server.url, "notifications.userHistory", { userId: "ada", channel: "sms" }, { cookie: support }),
      (r) => r.data.items.length === 3 && r.data.items.every((n: { status: string }) => n.status !== "pending"),
      "both resends decided",
    );
    const byId = Object.fromEntries(history.data.items.map((n: { id: string }) => [n.id, n]));
    expect(byId[sent.data.id]).toMatchObject({ resentFromId: original, status: expect.stringMatching(/^(sent|delivered)$/) });
    expect(byId[skipped.data.id]).toMatchObject({ resentFromId: original, status: "skipped", reason: "category_disabled" });
    expect(byId[original].resentAs).toEqual([sent.data.id, skipped.data.id]);
    expect(byId[sent.data.id].events[0]).toMatchObject({ type: "created", detail: { resentFrom: original } });

    const audit = await server.database.pool.query("SELECT target, detail FROM herald.audit_log WHERE action = 'notifications.resend' ORDER BY id");
    expect(audit.rows).toEqual([
      { target: "user:ada", detail: { notificationId: original, resendId: sent.data.id, type: "promo.weekly", channel: "sms" } },
      { target: "user:ada", detail: { notificationId: original, resendId: skipped.data.id, type: "promo.weekly", channel: "sms" } },
    ]);
  });
});
