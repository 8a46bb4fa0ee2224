import { createTestDatabase, type TestDatabase } from "@herald/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { idempotentCallbackRelease } from "../src/workers/idempotent-release.ts";

type Done = (release?: Error | boolean) => void;

/** Checks a client out the way graphile-worker checks out its LISTEN client. */
const checkOut = (pool: pg.Pool) =>
  new Promise<{ client: pg.PoolClient; done: Done }>((resolve, reject) =>
    (pool.connect as unknown as (cb: (e: Error | undefined, c: pg.PoolClient, d: Done) => void) => void)((error, client, done) =>
      error ? reject(error) : resolve({ client, done }),
    ),
  );

describe("the worker pool's callback-style release", () => {
  let testDatabase: TestDatabase;
  const pools: pg.Pool[] = [];
  const newPool = () => {
    const pool = new pg.Pool({ connectionString: testDatabase.url, max: 2 });
    pools.push(pool);
    return pool;
  };

  beforeAll(async () => {
    testDatabase = await createTestDatabase(inject("templateUrl"));
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await testDatabase.drop();
  });

  it("throws on a second release without the guard: the crash graphile-worker's LISTEN client caused", async () => {
    const { done } = await checkOut(newPool());
    done();
    expect(() => done()).toThrow(/already been released/);
  });

  it("ignores and reports a second release of one checkout, and the client returns to the pool once", async () => {
    const seconds: number[] = [];
    const pool = idempotentCallbackRelease(newPool(), () => seconds.push(1));
    const { client, done } = await checkOut(pool);
    done();
    expect(() => done()).not.toThrow();
    expect(seconds).toHaveLength(1);
    expect(pool.idleCount).toBe(1);
    expect(pool.totalCount).toBe(1);

    // The next checkout gets that client back, and its own release is live, not the stale one.
    const again = await checkOut(pool);
    expect(again.client).toBe(client);
    expect(pool.idleCount).toBe(0);
    done();
    expect(pool.idleCount).toBe(0);
    expect(seconds).toHaveLength(2);
    again.done();
    expect(pool.idleCount).toBe(1);
  });

  it("passes a failed connect through and leaves promise-style checkouts strict", async () => {
    const pool = idempotentCallbackRelease(new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none", connectionTimeoutMillis: 2_000 }), () => undefined);
    pools.push(pool);
    await expect(checkOut(pool)).rejects.toThrow(/ECONNREFUSED|connect/);

    const guarded = idempotentCallbackRelease(newPool(), () => undefined);
    const client = await guarded.connect();
    client.release();
    // The engine's own checkouts release once; a second release there is a bug to see, not hide.
    expect(() => client.release()).toThrow(/already been released/);
  });
});
