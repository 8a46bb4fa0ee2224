import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { consentHolds, openConsentPool, type ConsentHold } from "../src/dispatch/consent-holds.ts";
import { useTestDatabase } from "./support/test-database.ts";

const NOW = new Date("2026-11-30T14:00:00Z");

/**
 * Decision 0019: a batch holds its recipients' consent keys from its second look at the gates
 * until its calls are answered; a write that takes consent away waits for it. Each test starts a
 * write while a hold is open, sees the writer's backend wait on the advisory lock (read from
 * pg_stat_activity, not guessed from a sleep), releases, and sees the write commit.
 */
describe("consent holds", () => {
  const test = useTestDatabase();
  let holdsPool: pg.Pool;
  let userId: string;
  let deviceId: string;

  beforeAll(async () => {
    holdsPool = openConsentPool(test.url, 4);
    await test.db.pool.query("INSERT INTO herald.categories (key, label, mandatory, defaults) VALUES ('news', 'News', false, '{}')");
    const { rows } = await test.db.pool.query<{ id: string }>(
      "INSERT INTO herald.users (external_id, email, phone) VALUES ('ada', 'Ada@example.com', '+4915112345678') RETURNING id::text",
    );
    userId = rows[0]!.id;
    const device = await test.db.pool.query<{ id: string }>(
      "INSERT INTO herald.devices (user_id, token, platform) VALUES ($1, 'token-ada-1', 'ios') RETURNING id::text",
      [userId],
    );
    deviceId = device.rows[0]!.id;
  });
  afterAll(async () => holdsPool?.end());

  const hold = (addresses: string[] = ["Ada@example.com"]) => consentHolds(holdsPool)([{ userId, addresses }]);

  /** Runs `statement` on a connection of its own; resolves when it has committed. */
  async function write(statement: string, params: unknown[] = []) {
    const client = await test.db.pool.connect();
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const done = client.query(statement, params).finally(() => client.release());
    return { pid: rows[0]!.pid, done };
  }

  async function waitsOnConsent(pid: number): Promise<boolean> {
    for (let i = 0; i < 1000; i++) {
      const { rows } = await test.db.pool.query<{ waiting: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = $1 AND NOT l.granted AND l.locktype = 'advisory'
                          AND l.classid::bigint = herald.consent_lock_class()) AS waiting`,
        [pid],
      );
      if (rows[0]!.waiting) return true;
      await new Promise((r) => setTimeout(r, 10));
    }
    return false;
  }

  /** Whether `promise` has settled by now (without waiting for it). */
  async function settled(promise: Promise<unknown>): Promise<boolean> {
    return Promise.race([promise.then(() => true, () => true), new Promise<boolean>((r) => setImmediate(() => r(false)))]);
  }

  async function expectWriteWaitsForRelease(h: ConsentHold, statement: string, params: unknown[] = []) {
    const writer = await write(statement, params);
    expect(await waitsOnConsent(writer.pid)).toBe(true);
    expect(await settled(writer.done)).toBe(false);
    await h.release();
    await writer.done;
  }

  it("holds every key of a recipient it can, and the gates under the hold read what committed before it", async () => {
    const h = await hold();
    expect(h.held).toEqual([true]);
    const [verdict] = await h.gates([{ userId, channel: "email", category: "news", lane: "bulk" }], NOW, "UTC");
    expect(verdict).toMatchObject({ verdict: "send", address: "Ada@example.com" });
    await h.release();
  });

  it("makes a suppression of the address wait until the calls are answered, ", async () => {
    const h = await hold();
    await expectWriteWaitsForRelease(h, "INSERT INTO herald.suppressions (channel, address, reason, source) VALUES ('email', 'Ada@example.com', 'manual', 'test')");
    const after = await hold();
    const [verdict] = await after.gates([{ userId, channel: "email", category: "news", lane: "bulk" }], NOW, "UTC");
    await after.release();
    expect(verdict).toMatchObject({ verdict: "skip", reason: "suppressed:manual" });
  });

  it("makes an opt-out wait, and removing a preference (the default may be off); an opt-in never waits", async () => {
    const optOut = "INSERT INTO herald.preferences (user_id, category, channel, enabled, source) VALUES ($1, 'news', 'sms', false, 'api')";
    await expectWriteWaitsForRelease(await hold([]), optOut, [userId]);
    await expectWriteWaitsForRelease(await hold([]), "DELETE FROM herald.preferences WHERE user_id = $1", [userId]);

    const h = await hold([]);
    const optIn = await write("INSERT INTO herald.preferences (user_id, category, channel, enabled, source) VALUES ($1, 'news', 'push', true, 'api')", [userId]);
    await optIn.done;
    await h.release();
  });

  it("makes a device switched off or removed wait; a device's other updates do not", async () => {
    let h = await hold([]);
    const touch = await write("UPDATE herald.devices SET updated_at = now() WHERE id = $1", [deviceId]);
    await touch.done;
    await expectWriteWaitsForRelease(h, "UPDATE herald.devices SET active = false, deactivated_reason = 'signed_out', deactivated_at = now() WHERE id = $1", [deviceId]);
    // Removing a device already off takes nothing away; removing an active one does.
    h = await hold([]);
    await (await write("DELETE FROM herald.devices WHERE id = $1", [deviceId])).done;
    await test.db.pool.query("INSERT INTO herald.devices (user_id, token, platform) VALUES ($1, 'token-ada-2', 'android')", [userId]);
    await expectWriteWaitsForRelease(h, "DELETE FROM herald.devices WHERE token = 'token-ada-2'");
  });

  it("says a recipient is not held while a writer is at work on one of its keys, so the batch can wait a moment", async () => {
    const writer = await test.db.pool.connect();
    try {
      await writer.query("BEGIN");
      await writer.query("INSERT INTO herald.suppressions (channel, address, reason, source) VALUES ('sms', '+4915112345678', 'stop', 'test')");
      const h = await consentHolds(holdsPool)([
        { userId, addresses: ["+4915112345678"] },
        { userId: "999999", addresses: ["someone-else@example.com"] },
      ]);
      // The second recipient may share a bucket with the first's keys; only the first is certain.
      expect(h.held[0]).toBe(false);
      await h.release();
    } finally {
      await writer.query("ROLLBACK");
      writer.release();
    }
  });

  it("locks each bucket once however many rows a statement writes", async () => {
    const client = await test.db.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(
        `INSERT INTO herald.suppressions (channel, address, reason, source)
         SELECT 'email', 'bulk-' || i || '@example.com', 'import', 'test' FROM generate_series(1, 20000) AS i`,
      );
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'advisory' AND classid::bigint = herald.consent_lock_class()",
      );
      expect(rows[0]!.n).toBeGreaterThan(900);
      expect(rows[0]!.n).toBeLessThanOrEqual(1024);
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
  });
});
