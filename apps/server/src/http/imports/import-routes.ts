import express, { type Router } from "express";
import type { AppServices } from "../../trpc/context.ts";
import { errorReportHandler } from "./error-report-route.ts";
import { uploadHandler } from "./upload-route.ts";

/** Where CSV files are uploaded: the one route allowed an hour to arrive (see body-deadline.ts). */
export const UPLOAD_PATH = "/files/imports";

/** The two import routes that carry files, outside tRPC: the upload and the error report. */
export function importRoutes(services: AppServices, allowedOrigins: readonly string[]): Router {
  const router = express.Router();
  router.post(UPLOAD_PATH, uploadHandler(services, allowedOrigins));
  router.get("/files/imports/:id/errors.csv", errorReportHandler(services));
  return router;
}
