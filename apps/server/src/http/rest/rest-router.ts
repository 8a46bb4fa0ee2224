import express, { type Router } from "express";
import type { AppServices } from "../../trpc/context.ts";
import { sendError } from "../rest-errors.ts";
import { admission } from "../admission.ts";
import { configRoutes } from "./config-routes.ts";
import { eventRoutes } from "./events-routes.ts";
import { readRoutes } from "./read-routes.ts";
import { apiKeyAuth } from "./rest-context.ts";
import { userRoutes } from "./users-routes.ts";

/** /api/v1: the REST contract of docs/api.md, authenticated by API keys. */
export function restApi(services: AppServices): Router {
  const router = express.Router();
  router.use(admission());
  router.use(apiKeyAuth(services));
  router.use(eventRoutes(services));
  router.use(userRoutes(services));
  router.use(configRoutes(services));
  router.use(readRoutes(services));
  router.use((_req, res) => sendError(res, 404, "not_found", "No such API route"));
  return router;
}
