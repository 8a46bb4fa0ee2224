import type { Sql } from "@herald/db";
import express, { type Router } from "express";
import type { Logger } from "pino";
import { databaseRegistry } from "../operations/database-metrics.ts";
import { processRegistry } from "../operations/process-metrics.ts";
import { requireBearerSecret } from "./secret-guard.ts";

/**
 * GET /metrics in Prometheus' text format, behind HERALD_METRICS_TOKEN (404 while it is unset,
 * 401 for a wrong token, compared in constant time).
 */
export function metricsRoutes(deps: { sql: Sql; token: string | undefined; log: Logger }): Router {
  const router = express.Router();
  router.get("/metrics", requireBearerSecret(deps.token, "/metrics", deps.log), async (_req, res, next) => {
    try {
      // Rendered one after the other, not merged: a merged registry drops the process registry's
      // herald_process label.
      const database = await databaseRegistry(deps.sql);
      res.setHeader("Content-Type", processRegistry.contentType);
      res.setHeader("Cache-Control", "no-store");
      res.send(`${await processRegistry.metrics()}\n${await database.metrics()}`);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
