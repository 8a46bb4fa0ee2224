import { deleteExpiredSessions, type Database } from "@herald/db";
import type { Task } from "graphile-worker";

/** Hourly: expired sessions are useless and only grow the table. */
export function pruneSessions(database: Database): Task {
  return async (_payload, helpers) => {
    const removed = await deleteExpiredSessions(database.prisma);
    if (removed > 0) helpers.logger.info(`pruned ${removed} expired session(s)`);
  };
}
