import { databaseTime, type Sql } from "@herald/db";

/** The database's clock, read without a query: this process's clock plus the offset last measured. */
export interface DatabaseClock {
  now(): Date;
  /** Measures the offset again (each heartbeat): this process's clock may be stepped meanwhile. */
  sync(): Promise<void>;
}

/**
 * Every decision a worker writes as an instant (a retry's next attempt, a deferral's end, a
 * breaker's cool-down, a broadcast's send times) is compared with the database's now() by the
 * pump and by other workers. Taken from this process's clock, a worker ten minutes fast
 * scheduled retries ten minutes late and one ten minutes slow retried at once. The offset is
 * measured against the middle of the query's round trip.
 */
export async function databaseClock(sql: Sql): Promise<DatabaseClock> {
  let offsetMs = 0;
  const clock: DatabaseClock = {
    now: () => new Date(Date.now() + offsetMs),
    sync: async () => {
      const before = Date.now();
      const db = await databaseTime(sql);
      offsetMs = db.getTime() - (before + Date.now()) / 2;
    },
  };
  await clock.sync();
  return clock;
}
