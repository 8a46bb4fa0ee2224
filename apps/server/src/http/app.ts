import { createExpressMiddleware } from "@trpc/server/adapters/express";
import express, { type Express } from "express";
import type { Env } from "../env.ts";
import { createContext, type AppServices } from "../trpc/context.ts";
import { appRouter } from "../trpc/app-router.ts";
import { BODY_DEADLINE_MS, bodyDeadline } from "./body-deadline.ts";
import { csrfGuard } from "./csrf.ts";
import { healthRoutes, type WorkerState } from "./health.ts";
import { requestLog } from "./request-log.ts";
import { restApi } from "./rest/rest-router.ts";
import { restErrorHandler, sendError } from "./rest-errors.ts";
import { securityHeaders } from "./security-headers.ts";
import { spaRoutes } from "./spa.ts";
import { sesWebhookRoutes } from "./webhooks/ses-webhook.ts";
import { twilioWebhookRoutes } from "./webhooks/twilio-webhook.ts";
import { createWebhookIntake } from "./webhooks/webhook-intake.ts";
import { clientRoutes } from "./client/client-routes.ts";
import { trackingRoutes } from "./links/tracking-routes.ts";
import { unsubscribeRoutes } from "./links/unsubscribe-routes.ts";
import { importRoutes, UPLOAD_PATH } from "./imports/import-routes.ts";
import { metricsRoutes } from "./metrics.ts";

export interface AppOptions {
  services: AppServices;
  webDist: string;
  workerState: () => WorkerState;
  /** How long a request other than a CSV upload may take to arrive; tests shorten it. */
  bodyDeadlineMs?: number;
}

/** The dashboard saves a template draft whole, every locale at once (up to 3 MiB of it). */
export const TRPC_BODY_LIMIT = 4 * 1024 * 1024;

export function createApp({ services, webDist, workerState, bodyDeadlineMs = BODY_DEADLINE_MS }: AppOptions): Express {
  const { env, log } = services;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.HERALD_TRUST_PROXY);
  app.use(requestLog(log));
  app.use(bodyDeadline(bodyDeadlineMs, (req) => req.method === "POST" && req.path === UPLOAD_PATH));
  app.use(securityHeaders({ https: env.publicUrl.protocol === "https:" }));
  app.use(metricsRoutes({ sql: services.database.pool, token: env.HERALD_METRICS_TOKEN, log }));
  app.use(healthRoutes({ database: services.database, workerState, unconfiguredChannels: () => services.providers.unconfiguredChannels() }));
  // Provider webhooks read their raw bodies themselves (signatures are over the exact bytes).
  const intake = createWebhookIntake(services.database.pool);
  app.use(sesWebhookRoutes(services, { intake }));
  app.use(
    twilioWebhookRoutes(services, {
      intake,
      // Every Twilio account Herald sends through may call back: environment and Settings → Providers.
      authToken: () => [
        ...(services.env.HERALD_TWILIO_AUTH_TOKEN ? [services.env.HERALD_TWILIO_AUTH_TOKEN] : []),
        ...(services.providers.specs?.() ?? []).filter((s) => s.kind === "twilio" && s.source === "dashboard").map((s) => s.secrets.authToken ?? ""),
      ],
    }),
  );
  // Public links in emails: the signed token is the whole authorisation (no cookie, no session).
  app.use(unsubscribeRoutes(services));
  app.use(trackingRoutes(services));

  app.use(
    "/trpc",
    csrfGuard(allowedOrigins(env)),
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req, res }) => createContext(services, req, res),
      maxBodySize: TRPC_BODY_LIMIT,
    }),
  );

  // CSV import's upload and error report: the dashboard's session, files instead of JSON.
  app.use(importRoutes(services, allowedOrigins(env)));

  // Before /api/v1: the client routes authenticate with per-user tokens, not API keys.
  app.use("/api/v1/client", clientRoutes(services));
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
