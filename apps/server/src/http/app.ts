import { createExpressMiddleware } from "@trpc/server/adapters/express";
import express, { type Express } from "express";
import type { Env } from "../env.ts";
import { createContext, type AppServices } from "../trpc/context.ts";
import { appRouter } from "../trpc/app-router.ts";
import { csrfGuard } from "./csrf.ts";
import { healthRoutes, type WorkerState } from "./health.ts";
import { requestLog } from "./request-log.ts";
import { restApi } from "./rest/rest-router.ts";
import { restErrorHandler, sendError } from "./rest-errors.ts";
import { securityHeaders } from "./security-headers.ts";
import { spaRoutes } from "./spa.ts";

export interface AppOptions {
  services: AppServices;
  webDist: string;
  workerState: () => WorkerState;
}

/** Default body limit for every route that does not say otherwise. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export function createApp({ services, webDist, workerState }: AppOptions): Express {
  const { env, log } = services;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.HERALD_TRUST_PROXY);
  app.use(requestLog(log));
  app.use(securityHeaders({ https: env.publicUrl.protocol === "https:" }));
  app.use(healthRoutes({ database: services.database, workerState, unconfiguredChannels: () => services.providers.unconfiguredChannels() }));

  app.use(
    "/trpc",
    csrfGuard(allowedOrigins(env)),
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req, res }) => createContext(services, req, res),
      maxBodySize: DEFAULT_BODY_LIMIT,
    }),
  );

  app.use("/api/v1", restApi(services));
  app.use("/api", (_req, res) => sendError(res, 404, "not_found", "No such API route"));
  app.use(spaRoutes(webDist));
  app.use(restErrorHandler(log));
  return app;
}

/**
 * The public URL's origin; in development also its loopback twins and Vite's dev server, so
 * `pnpm dev` and 127.0.0.1 work without configuration.
 */
export function allowedOrigins(env: Env): string[] {
  const origins = new Set([env.publicUrl.origin]);
  if (env.HERALD_MODE === "development") {
    for (const host of ["localhost", "127.0.0.1"]) {
      origins.add(`http://${host}:${env.PORT}`);
      origins.add(`http://${host}:5173`);
    }
  }
  return [...origins];
}
