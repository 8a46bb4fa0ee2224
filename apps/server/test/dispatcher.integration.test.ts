import { configureBucket, consentHolds, ingestEvents, listBuckets, openConsentPool, openDatabase, type Database } from "@herald/db";
import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { BreakerBook } from "../src/dispatch/breaker-book.ts";
import { dispatchBatch, type DispatcherDependencies, type DispatchPolicy } from "../src/dispatch/dispatcher.ts";
import { mapConcurrently } from "../src/providers/map-concurrently.ts";
import { notCalled, type OutboundMessage, type Provider, type ProviderCallResult } from "../src/providers/provider.ts";
import { createProviderRegistry, type ChannelRoute } from "../src/providers/provider-registry.ts";
import { ScriptedProvider } from "./support/scripted-provider.ts";

const POLICY: DispatchPolicy = {
  retry: { floorMs: 10_000, baseMs: 10_000, maxAttempts: 3, maxAgeMs: 3_600_000 },
  outageMaxAgeMs: 24 * 3_600_000,
  breakerCoolDownMs: 30_000,
  defaultTimezone: "UTC",
};

describe("the dispatcher", () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let counter = 0;

  beforeAll(async () => {
    testDatabase = await createTestDatabase(inject("templateUrl"));
    database = openDatabase(testDatabase.url);
    await database.pool.query(`
      INSERT INTO herald.categories (key, label) VALUES ('news', 'News');
      INSERT INTO herald.notification_types (type, channels) VALUES
        ('news.email', '[{"channel": "email", "category": "news", "content": {"subject": "Hi", "body": "Hello {{ data.name }}"}}]');`);
  });
  beforeEach(async () => {
    await database.pool.query("DELETE FROM herald.provider_breakers");
  });
  afterAll(async () => {
    await database.close();
    await testDatabase.drop();
  });

  function deps(route: ChannelRoute | null, policy: Partial<DispatchPolicy> = {}, random = () => 0.5): DispatcherDependencies {
    return {
      sql: database.pool,
      holdConsent: consentHolds(database.pool),
      providers: createProviderRegistry(route ? { email: route } : {}),
      breakers: new BreakerBook(database.pool, () => ({ failureThreshold: 3, coolDownMs: policy.breakerCoolDownMs ?? POLICY.breakerCoolDownMs }), 0),
      policy: async () => ({ ...POLICY, ...policy }),
      log: pino({ level: "silent" }),
      random,
    };
  }

  async function notification(data: Record<string, unknown> = { name: "Ada" }): Promise<string> {
    counter += 1;
    const user = `user-${counter}`;
    await database.pool.query("INSERT INTO herald.users (external_id, email) VALUES ($1, $2)", [user, `${user}@example.com`]);
    const [r] = await ingestEvents(database.pool, [{ eventId: `ev-${counter}`, type: "news.email", userId: user, data }]);
    return r!.notifications[0]!.id;
  }

  async function row(id: string) {
    const { rows } = await database.pool.query(
      `SELECT status, reason, dispatch_state, attempt_count, next_attempt_at, first_attempt_at, deferred_ms, provider, last_error,
              extract(epoch FROM next_attempt_at - now()) * 1000 AS wait_ms,
              (SELECT array_agg(type ORDER BY id) FROM herald.notification_events e WHERE e.notification_id = n.id) AS events
         FROM herald.notifications n WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  /** Never called, so back in the queue within a second with the attempt refunded. */
  async function expectPutBack(ids: readonly string[]) {
    for (const id of ids) {
      const r = await row(id);
      expect(r).toMatchObject({ status: "pending", dispatch_state: "queued", attempt_count: 0 });
      expect(Number(r.wait_ms)).toBeLessThanOrEqual(1000);
      expect(r.events.at(-1)).toBe("deferred");
    }
  }

  /** Makes a waiting row due now, as time passing would. */
  async function due(id: string) {
    await database.pool.query("UPDATE herald.notifications SET next_attempt_at = now() WHERE id = $1", [id]);
  }

  it("skips a user who opted out while the job was waiting: no provider call", async () => {
    const provider = new ScriptedProvider("primary-1", "email");
    const id = await notification();
    await database.pool.query(
      `INSERT INTO herald.preferences (user_id, category, channel, enabled, source)
       SELECT user_id, 'news', 'email', false, 'api' FROM herald.notifications WHERE id = $1`,
      [id],
    );
    await dispatchBatch(deps({ primary: provider }), "email", [id], "1");
    expect(await row(id)).toMatchObject({ status: "skipped", reason: "category_disabled", attempt_count: 0 });
    expect(provider.calls).toHaveLength(0);
  });

  it("dead-letters content that cannot render, naming the variable, without calling the provider", async () => {
    const provider = new ScriptedProvider("primary-2", "email");
    const id = await notification({});
    await dispatchBatch(deps({ primary: provider }), "email", [id], "1");
    expect(await row(id)).toMatchObject({ status: "dead", reason: "render_failed:data.name" });
    expect(provider.calls).toHaveLength(0);
  });

  it("backs off with full jitter above a 10 s floor, honours a longer Retry-After without spending an attempt on it, and dead-letters at max attempts", async () => {
    const provider = new ScriptedProvider("primary-3", "email").answer(
      { kind: "retry", reason: "http_503", providerCode: "503" },
      { kind: "retry", reason: "http_429", afterMs: 120_000, providerCode: "429" },
      { kind: "retry", reason: "http_503", providerCode: "503" },
      { kind: "retry", reason: "http_503", providerCode: "503" },
    );
    const id = await notification();
    // No cool-down: once three failures in a row open the breaker, the next call goes through as its trial.
    const d = deps({ primary: provider }, { breakerCoolDownMs: 0 }, () => 0.9);

    await dispatchBatch(d, "email", [id], "1");
    let r = await row(id);
    expect(r).toMatchObject({ status: "pending", dispatch_state: "retry_wait", attempt_count: 1 });
    // k = 1: max(10 s, 0.9 · 10 s) = 10 s.
    expect(Number(r.wait_ms)).toBeGreaterThan(9_000);
    expect(Number(r.wait_ms)).toBeLessThanOrEqual(10_000);

    await due(id);
    await dispatchBatch(d, "email", [id], "2");
    r = await row(id);
    // The provider asked to slow down: a throttle is no verdict on the message, its attempt is refunded.
    expect(r).toMatchObject({ dispatch_state: "retry_wait", attempt_count: 1, last_error: "http_429" });
    // Retry-After: 120 s beats the jittered 18 s.
    expect(Number(r.wait_ms)).toBeGreaterThan(119_000);

    await due(id);
    await dispatchBatch(d, "email", [id], "3");
    expect((await row(id)).attempt_count).toBe(2);
    await due(id);
    await dispatchBatch(d, "email", [id], "4");
    r = await row(id);
    expect(r).toMatchObject({ status: "dead", reason: "max_attempts", attempt_count: 3, last_error: "http_503" });
    expect(r.events).toEqual(["created", "attempt", "retry_scheduled", "attempt", "retry_scheduled", "attempt", "retry_scheduled", "attempt", "dead"]);
    expect(provider.calls).toHaveLength(4);
  });

  it("refunds every throttle of an endless storm, but still dead-letters the message at its maximum age", async () => {
    const throttled = { kind: "retry", reason: "throttled", afterMs: 60_000, providerCode: "429" } as const;
    const provider = new ScriptedProvider("primary-storm", "email").answer(throttled, throttled);
    const id = await notification();
    const d = deps({ primary: provider }, { breakerCoolDownMs: 0 });
    await dispatchBatch(d, "email", [id], "501");
    expect(await row(id)).toMatchObject({ status: "pending", dispatch_state: "retry_wait", attempt_count: 0, last_error: "throttled" });

    // The storm has lasted 59 minutes: another minute's wait would pass the hour.
    await database.pool.query("UPDATE herald.notifications SET first_attempt_at = now() - interval '59 minutes' WHERE id = $1", [id]);
    await due(id);
    await dispatchBatch(d, "email", [id], "502");
    expect(await row(id)).toMatchObject({ status: "dead", reason: "max_age", attempt_count: 1 });
    expect(provider.calls).toHaveLength(2);
  });

  it("counts a Retry-After from when the provider answered, not from when the batch was claimed", async () => {
    // Found by the reliability suite's 429 storm (tests/chaos): a batch that spent time on its
    // calls retried a throttled message before the provider's Retry-After had passed.
    const claimedAt = new Date("2026-12-01T10:00:00Z");
    const answeredAt = new Date("2026-12-01T10:00:40.400Z");
    let clock = claimedAt;
    const provider = new ScriptedProvider("primary-ra", "email").answer(() => {
      clock = answeredAt; // the calls of a long batch took 40 s
      return { kind: "retry", reason: "http_429", afterMs: 12_000, providerCode: "429" };
    });
    const id = await notification();
    await dispatchBatch({ ...deps({ primary: provider }), now: () => clock }, "email", [id], "90");
    const r = await row(id);
    expect(r.dispatch_state).toBe("retry_wait");
    // 40.4 s + 12 s, rounded up to the whole second: the pump runs a row's job at the start of
    // the second it is due in, which must not be before the provider's Retry-After.
    expect((r.next_attempt_at as Date).toISOString()).toBe("2026-12-01T10:00:53.000Z");
  });

  it("records each result as the provider reports it, while the rest of the batch is still being sent", async () => {
    // A worker killed mid-batch must leave only its calls in flight unrecorded (tests/chaos
    // measured a kill exposing 24 accepted emails when results were written once per batch).
    const first = await notification();
    const second = await notification();
    let firstRecordedBeforeSecondAnswered = false;
    const provider: Provider = {
      name: "primary-incremental",
      channel: "email",
      async send(messages, { onResult } = {}) {
        onResult?.(0, { outcome: { kind: "sent", providerMessageId: "m-0" }, latencyMs: 1 });
        for (let i = 0; i < 100 && !firstRecordedBeforeSecondAnswered; i++) {
          firstRecordedBeforeSecondAnswered = (await row(first)).status === "sent";
          if (!firstRecordedBeforeSecondAnswered) await new Promise((r) => setTimeout(r, 50));
        }
        return messages.map((_m, i) => ({ outcome: { kind: "sent" as const, providerMessageId: `m-${i}` }, latencyMs: 1 }));
      },
    };
    await dispatchBatch(deps({ primary: provider }), "email", [first, second], "91");
    expect(firstRecordedBeforeSecondAnswered).toBe(true);
    expect(await row(first)).toMatchObject({ status: "sent", attempt_count: 1 });
    expect(await row(second)).toMatchObject({ status: "sent", attempt_count: 1 });
    // Recorded once each, though the first was reported twice (as it landed, and in the answer).
    const { rows } = await database.pool.query(`SELECT count(*)::int AS n FROM herald.notification_events WHERE type = 'sent' AND notification_id = ANY($1::bigint[])`, [[first, second]]);
    expect(rows[0].n).toBe(2);
  });

  it("dead-letters at max age counted from the first attempt, excluding time spent deferred", async () => {
    const provider = new ScriptedProvider("primary-4", "email").always({ kind: "retry", reason: "http_500" });
    const d = deps({ primary: provider }, { retry: { ...POLICY.retry, maxAttempts: 50, maxAgeMs: 60 * 60_000 } });
    const id = await notification();
    await dispatchBatch(d, "email", [id], "1");

    // 61 minutes since the first attempt, 30 of them deferred (quiet hours): 31 minutes of age.
    await database.pool.query(
      `UPDATE herald.notifications SET first_attempt_at = now() - interval '61 minutes', deferred_ms = 30 * 60000,
              next_attempt_at = now() WHERE id = $1`,
      [id],
    );
    await dispatchBatch(d, "email", [id], "2");
    expect(await row(id)).toMatchObject({ status: "pending", dispatch_state: "retry_wait" });

    // Without the deferral the same 61 minutes are past the hour.
    await database.pool.query("UPDATE herald.notifications SET deferred_ms = 0, next_attempt_at = now() WHERE id = $1", [id]);
    await dispatchBatch(d, "email", [id], "3");
    expect(await row(id)).toMatchObject({ status: "dead", reason: "max_age" });
  });

  it("adds the time a row spent deferred to deferred_ms when it is taken again", async () => {
    const provider = new ScriptedProvider("primary-5", "email").answer({ kind: "retry", reason: "http_500" });
    const d = deps({ primary: provider });
    const id = await notification();
    await dispatchBatch(d, "email", [id], "1");
    await database.pool.query(
      "UPDATE herald.notifications SET dispatch_state = 'deferred', deferred_since = now() - interval '90 seconds', next_attempt_at = now() WHERE id = $1",
      [id],
    );
    await dispatchBatch(d, "email", [id], "2");
    const r = await row(id);
    expect(Number(r.deferred_ms)).toBeGreaterThanOrEqual(90_000);
    expect(Number(r.deferred_ms)).toBeLessThan(95_000);
  });

  it("opens the breaker after consecutive provider failures and fails over to the secondary", async () => {
    const primary = new ScriptedProvider("flaky-primary", "email").always({ kind: "retry", reason: "timeout" });
    const secondary = new ScriptedProvider("steady-secondary", "email");
    const d = deps({ primary, secondary });
    const ids = [await notification(), await notification(), await notification()];
    await dispatchBatch(d, "email", ids, "1");
    expect(primary.calls).toHaveLength(3);
    const { rows } = await database.pool.query("SELECT state, reason FROM herald.provider_breakers WHERE breaker_key = 'flaky-primary'");
    expect(rows).toEqual([{ state: "open", reason: "failure_threshold" }]);

    for (const id of ids) await due(id);
    await dispatchBatch(d, "email", ids, "2");
    expect(primary.calls).toHaveLength(3);
    expect(secondary.calls).toHaveLength(3);
    for (const id of ids) expect(await row(id)).toMatchObject({ status: "sent", provider: "steady-secondary" });
  });

  it("never counts a bad recipient toward the breaker", async () => {
    const primary = new ScriptedProvider("picky", "email").always({ kind: "dead", reason: "provider_rejected:400" });
    const d = deps({ primary });
    const ids = await Promise.all(Array.from({ length: 5 }, () => notification()));
    await dispatchBatch(d, "email", ids, "1");
    expect(d.breakers.state("picky").state).toBe("closed");
    const { rows } = await database.pool.query("SELECT count(*)::int AS n FROM herald.provider_breakers");
    expect(rows[0].n).toBe(0);
  });

  it("defers without spending attempts on an outage, half-opens after the cool-down, and closes on a good trial", async () => {
    const primary = new ScriptedProvider("suspended", "email").answer({ kind: "outage", reason: "credentials_outage", providerCode: "401" });
    const d = deps({ primary }, { breakerCoolDownMs: 200 });
    const [a, b] = [await notification(), await notification()];

    await dispatchBatch(d, "email", [a], "1");
    expect(await row(a)).toMatchObject({ status: "pending", dispatch_state: "deferred", reason: "credentials_outage", attempt_count: 0 });
    expect(d.breakers.state("suspended").state).toBe("open");

    // While open: deferred with no call and no attempt.
    await dispatchBatch(d, "email", [b], "2");
    expect(await row(b)).toMatchObject({ dispatch_state: "deferred", reason: "breaker_open", attempt_count: 0 });
    expect(primary.calls).toHaveLength(1);

    // After the cool-down one trial goes out; its success closes the breaker.
    await new Promise((r) => setTimeout(r, 250));
    await due(a);
    await due(b);
    await dispatchBatch(d, "email", [a, b], "3");
    expect(primary.calls).toHaveLength(2);
    expect(d.breakers.state("suspended").state).toBe("closed");
    expect((await row(a)).status).toBe("sent");
    expect(await row(b)).toMatchObject({ dispatch_state: "deferred", reason: "breaker_open" });
    await due(b);
    await dispatchBatch(d, "email", [b], "4");
    expect((await row(b)).status).toBe("sent");
  });

  it("dead-letters a notification deferred by an outage past outageMaxAge", async () => {
    const id = await notification();
    await dispatchBatch(deps(null), "email", [id], "1");
    expect(await row(id)).toMatchObject({ dispatch_state: "deferred", reason: "channel_unconfigured", attempt_count: 0 });
    await database.pool.query("UPDATE herald.notifications SET outage_since = now() - interval '25 hours', next_attempt_at = now() WHERE id = $1", [id]);
    await dispatchBatch(deps(null), "email", [id], "2");
    expect(await row(id)).toMatchObject({ status: "dead", reason: "outage_max_age" });
  });

  it("counts the attempt before the provider is called, so a crash mid-call still counts", async () => {
    const id = await notification();
    let seen: unknown;
    const provider = new ScriptedProvider("observer", "email").answer(() => {
      return { kind: "sent", providerMessageId: "x-1" };
    });
    const original = provider.send.bind(provider);
    provider.send = async (messages) => {
      seen = (await row(id)).attempt_count;
      return original(messages);
    };
    await dispatchBatch(deps({ primary: provider }), "email", [id], "1");
    expect(seen).toBe(1);
  });

  it("treats a provider that throws as a retry, never as a lost notification", async () => {
    const id = await notification();
    const provider = new ScriptedProvider("broken", "email");
    provider.send = async () => {
      throw new Error("bug in adapter");
    };
    await dispatchBatch(deps({ primary: provider }), "email", [id], "1");
    expect(await row(id)).toMatchObject({ status: "pending", dispatch_state: "retry_wait", last_error: "provider_threw" });
  });

  describe("consent changes racing the batch (decision 0019)", () => {
    const suppress = (id: string, sql: { query: Database["pool"]["query"] } = database.pool) =>
      sql.query(
        `INSERT INTO herald.suppressions (channel, address, reason, source)
         SELECT 'email', u.email, 'manual', 'test' FROM herald.notifications n JOIN herald.users u ON u.id = n.user_id WHERE n.id = $1`,
        [id],
      );

    it("skips a recipient suppressed after the first look at the gates: the second look, under the hold, sees it", async () => {
      const provider = new ScriptedProvider("consent-1", "email");
      const [late, other] = [await notification(), await notification()];
      const d = deps({ primary: provider });
      const holds = d.holdConsent;
      await dispatchBatch({ ...d, holdConsent: async (subjects) => (await suppress(late), holds(subjects)) }, "email", [late, other], "1");
      expect(await row(late)).toMatchObject({ status: "skipped", reason: "suppressed:manual", attempt_count: 0 });
      expect(await row(other)).toMatchObject({ status: "sent", attempt_count: 1 });
      expect(provider.calls.map((m) => m.notificationId)).toEqual([other]);
    });

    it("holds back, spending no attempt, a recipient whose suppression is being written at that moment", async () => {
      const provider = new ScriptedProvider("consent-2", "email");
      const id = await notification();
      const writer = await database.pool.connect();
      try {
        await writer.query("BEGIN");
        await suppress(id, writer);
        await dispatchBatch(deps({ primary: provider }), "email", [id], "1");
      } finally {
        await writer.query("ROLLBACK");
        writer.release();
      }
      expect(await row(id)).toMatchObject({ status: "pending", reason: "consent_changing", dispatch_state: "deferred", attempt_count: 0 });
      expect(Number((await row(id)).wait_ms)).toBeLessThanOrEqual(1000);
      expect(provider.calls).toHaveLength(0);
    });

    it("makes a suppression written during the call wait until the provider has answered", async () => {
      const id = await notification();
      let writerPid = 0;
      let writing: Promise<unknown> = Promise.resolve();
      let waitedDuringCall = false;
      let answered = false;
      let committedAfterAnswer = false;
      const provider: Provider = {
        name: "consent-3",
        channel: "email",
        async send(messages) {
          const writer = await database.pool.connect();
          writerPid = (await writer.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
          writing = suppress(id, writer)
            .then(() => (committedAfterAnswer = answered))
            .finally(() => writer.release());
          for (let i = 0; i < 1000 && !waitedDuringCall; i++) {
            const { rows } = await database.pool.query<{ waiting: boolean }>(
              "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = $1 AND NOT granted AND locktype = 'advisory') AS waiting",
              [writerPid],
            );
            waitedDuringCall = rows[0]!.waiting;
            if (!waitedDuringCall) await new Promise((r) => setTimeout(r, 10));
          }
          answered = true;
          return messages.map((m) => ({ outcome: { kind: "sent" as const, providerMessageId: `pm-${m.notificationId}` }, latencyMs: 1 }));
        },
      };
      await dispatchBatch(deps({ primary: provider }), "email", [id], "1");
      await writing;
      expect(waitedDuringCall).toBe(true);
      expect(committedAfterAnswer).toBe(true);
      expect(await row(id)).toMatchObject({ status: "sent" });
    });

    it("stops calling once its hold's connection is lost, and puts back what it never called, attempt refunded", async () => {
      // The hold is what keeps an opt-out from committing between the second look and the call:
      // once Postgres ends its connection (a restart, a terminated backend, an idle timeout),
      // the batch's next call could follow an opt-out.
      const ids = [await notification(), await notification(), await notification()];
      const consentPool = openConsentPool(testDatabase.url, 1);
      const provider = oneAtATime("consent-4", async (index, signal) => {
        if (index === 0) {
          await database.pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'herald-consent' AND datname = current_database()");
          await until(() => signal.aborted);
        }
      });
      try {
        await dispatchBatch({ ...deps({ primary: provider }), holdConsent: consentHolds(consentPool) }, "email", ids, "1");
      } finally {
        await consentPool.end();
      }
      expect(provider.calls).toEqual([ids[0]]);
      expect(await row(ids[0]!)).toMatchObject({ status: "sent", attempt_count: 1 });
      await expectPutBack(ids.slice(1));
    });
  });

  describe("a paced provider (one with a token bucket)", () => {
    /**
     * The pool, with the attempts' write (the first decisions written) held `ms` longer: a slow
     * database. `meanwhile` runs while it is held.
     */
    function slowAttemptWrite(ms: number, meanwhile: () => Promise<unknown> = async () => undefined): Database["pool"]["query"] {
      let first = true;
      return ((...args: Parameters<Database["pool"]["query"]>) => {
        const run = () => (database.pool.query as (...a: unknown[]) => unknown)(...args);
        if (!first || (args[0] as { name?: string }).name !== "herald_apply_dispatch_decisions") return run();
        first = false;
        return Promise.all([new Promise((r) => setTimeout(r, ms)), meanwhile()]).then(run);
      }) as Database["pool"]["query"];
    }

    /** When the bucket was last taken from: a call's token is taken no earlier than TOKEN_STALE_MS before it starts. */
    async function lastTake(provider: string): Promise<number> {
      const { rows } = await database.pool.query("SELECT refilled_at FROM herald.provider_buckets WHERE provider = $1", [provider]);
      return (rows[0].refilled_at as Date).getTime();
    }

    it("hands back tokens the attempts' write outlasted and calls with fresh ones", async () => {
      // Calls starting seconds after their tokens would land beside the calls whose tokens that
      // later second granted: the provider's quota would see both. The stale tokens were never
      // used, so the bucket takes them back and grants them again, now.
      await configureBucket(database.pool, "paced-1", 1, 3);
      const ids = [await notification(), await notification(), await notification()];
      const provider = oneAtATime("paced-1", async () => undefined);
      const started = Date.now();
      await dispatchBatch({ ...deps({ primary: provider }), sql: { query: slowAttemptWrite(700) } }, "email", ids, "81");
      expect(provider.calls).toEqual(ids);
      for (const id of ids) expect(await row(id)).toMatchObject({ status: "sent", attempt_count: 1 });
      expect((await lastTake("paced-1")) - started).toBeGreaterThanOrEqual(700);
      // The three handed back were taken again at 0.7 s: without that, the bucket would hold the
      // 0.7 tokens those 0.7 s refilled, and more by now.
      expect((await listBuckets(database.pool)).find((b) => b.provider === "paced-1")!.tokens).toBeLessThan(0.5);
    });

    it("puts back what the bucket no longer grants when the tokens are renewed (its rate was lowered meanwhile), attempt refunded", async () => {
      await configureBucket(database.pool, "paced-2", 1, 3);
      const ids = [await notification(), await notification(), await notification()];
      const provider = oneAtATime("paced-2", async () => undefined);
      const lowered = () => configureBucket(database.pool, "paced-2", 1, 1);
      await dispatchBatch({ ...deps({ primary: provider }), sql: { query: slowAttemptWrite(700, lowered) } }, "email", ids, "82");
      expect(provider.calls).toEqual(ids.slice(0, 1));
      expect(await row(ids[0]!)).toMatchObject({ status: "sent", attempt_count: 1 });
      await expectPutBack(ids.slice(1));
      const { rows } = await database.pool.query("SELECT detail->>'reason' AS reason FROM herald.notification_events WHERE notification_id = ANY($1) AND type = 'deferred'", [ids.slice(1)]);
      expect(rows.map((r) => r.reason)).toEqual(["rate_limited", "rate_limited"]);
    });

    it("renews the tokens of calls that a slow first call held back, without cutting the batch short", async () => {
      // SES's SDK took 0.8 s over its first calls after a worker started: the batch's later calls
      // started a second after their tokens, and the simulator saw 30 calls above 14/s in a window.
      await configureBucket(database.pool, "paced-3", 100, 100);
      const ids = [await notification(), await notification(), await notification()];
      const provider = oneAtATime("paced-3", async (index) => {
        if (index === 0) await new Promise((r) => setTimeout(r, 700));
      });
      const started = Date.now();
      await dispatchBatch(deps({ primary: provider }), "email", ids, "83");
      expect(provider.calls).toEqual(ids);
      for (const id of ids) expect(await row(id)).toMatchObject({ status: "sent", attempt_count: 1 });
      expect((await lastTake("paced-3")) - started).toBeGreaterThanOrEqual(700);
    });
  });

  it("stops calling once a result cannot be recorded, so nothing it sends after goes unrecorded", async () => {
    const ids = [await notification(), await notification(), await notification(), await notification()];
    let failRecording = false;
    // The database answering everything but the result writes: as if it went away mid-batch.
    const sql = {
      query: ((...args: Parameters<Database["pool"]["query"]>) => {
        const name = (args[0] as { name?: string }).name;
        if (failRecording && name === "herald_apply_dispatch_decisions") return Promise.reject(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
        return (database.pool.query as (...a: unknown[]) => unknown)(...args);
      }) as Database["pool"]["query"],
    };
    const provider = oneAtATime("recording-1", async (index, signal) => {
      failRecording = true;
      // The second call starts as the first result's write goes out; once that write fails,
      // no further call starts.
      if (index === 1) await until(() => signal.aborted);
    });
    await expect(dispatchBatch({ ...deps({ primary: provider }), sql }, "email", ids, "77")).rejects.toThrow(/ECONNREFUSED/);
    expect(provider.calls).toEqual([ids[0], ids[1]]);
    // Its rows stay with its job, whose next run takes them back (claimBatch) and sends them.
    for (const id of ids) expect(await row(id)).toMatchObject({ status: "pending", dispatch_state: "in_flight", attempt_count: 1 });
  });
});

/** A provider that calls one message at a time and honours the batch's stop signal and token permits, as SES and Twilio do. */
function oneAtATime(name: string, beforeAnswer: (index: number, signal: AbortSignal) => Promise<void>): Provider & { calls: string[] } {
  const calls: string[] = [];
  let index = 0;
  return {
    name,
    channel: "email",
    calls,
    send: (messages: readonly OutboundMessage[], { onResult, signal, permit } = {}) =>
      mapConcurrently(
        messages,
        1,
        async (m): Promise<ProviderCallResult> => {
          calls.push(m.notificationId);
          await beforeAnswer(index++, signal!);
          return { outcome: { kind: "sent", providerMessageId: `${name}-${m.notificationId}` }, latencyMs: 1 };
        },
        { onResult, signal, permit, notStarted: notCalled },
      ),
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
}
