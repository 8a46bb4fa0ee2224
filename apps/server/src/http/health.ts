import { pendingMigrations, type Database } from "@herald/db";
import express, { type Router } from "express";

/** "restarting": a runner exited (the database went away) and is being started again. */
export type WorkerState = "running" | "starting" | "restarting" | "stopped" | "not_in_role";

export interface HealthDependencies {
  database: Database;
  workerState: () => WorkerState;
  /** Channels with no provider: reported loudly, but not a reason to take the instance out of service. */
  unconfiguredChannels: () => string[];
}

/** /healthz: the process is up. /readyz: it can do its job (database, schema, workers). */
export function healthRoutes(deps: HealthDependencies): Router {
  const router = express.Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const checks: Record<string, { ok: boolean; detail?: string }> = {};
    try {
      await deps.database.pool.query("SELECT 1");
      checks.database = { ok: true };
      const pending = await pendingMigrations(deps.database.pool);
      checks.migrations = pending.length === 0 ? { ok: true } : { ok: false, detail: `pending: ${pending.join(", ")}` };
    } catch (error) {
      checks.database = { ok: false, detail: `unreachable: ${(error as Error).message}` };
    }
    const workers = deps.workerState();
    checks.workers = { ok: workers === "running" || workers === "not_in_role", detail: workers };
    const ready = Object.values(checks).every((c) => c.ok);
    const unconfigured = deps.unconfiguredChannels();
    res.status(ready ? 200 : 503).json({
      status: ready ? "ready" : "not_ready",
      checks,
      ...(unconfigured.length > 0 ? { unconfiguredChannels: unconfigured } : {}),
    });
  });
  return router;
}
