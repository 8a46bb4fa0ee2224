import type pg from "pg";

/**
 * Makes the `done` that a callback-style `pool.connect` hands out ignore a second call.
 *
 * graphile-worker 0.18 checks its LISTEN client out that way, and can release it twice when a
 * Postgres restart lands while its pool shuts down: the shutdown releases the client, and the
 * failed LISTEN query releases it again. pg-pool throws on the second release, inside an async
 * function, so the rejection goes unhandled and the worker process exits with jobs locked.
 * Each checkout gets its own `done`, so a second call of one can only be that stale release.
 */
export function idempotentCallbackRelease(pool: pg.Pool, onSecondRelease: () => void): pg.Pool {
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | void;
  const guarded = (callback?: ConnectCallback) => {
    if (!callback) return connect();
    return connect((error, client, done) => {
      let released = false;
      callback(error, client, (releaseError?: Error | boolean) => {
        if (released) return onSecondRelease();
        released = true;
        done(releaseError);
      });
    });
  };
  pool.connect = guarded as pg.Pool["connect"];
  return pool;
}

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: Error | boolean) => void) => void;
