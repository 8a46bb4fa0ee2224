import express, { type Router } from "express";
import type { AppServices } from "../../trpc/context.ts";
import { errorReportHandler } from "./error-report-route.ts";
import { uploadHandler } from "./upload-route.ts";

/** The two import routes that carry files, outside tRPC: the upload and the error report. */
export function importRoutes(services: AppServices, allowedOrigins: readonly string[]): Router {
  const router = express.Router();
  router.post("/files/imports", uploadHandler(services, allowedOrigins));
  router.get("/files/imports/:id/errors.csv", errorReportHandler(services));
  return router;
}
