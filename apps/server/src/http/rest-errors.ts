import type { ErrorRequestHandler, Response } from "express";
import type { Logger } from "pino";
import { APP_ERROR_STATUS, AppError } from "../errors.ts";

/** REST errors are always `{ error: { code, message, details? } }`, never a stack trace. */
export function sendError(res: Response, status: number, code: string, message: string, details?: unknown): void {
  res.status(status).json({ error: { code, message, ...(details === undefined ? {} : { details }) } });
}

export function restErrorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const e = error as { type?: string; status?: number; limit?: number; message?: string };
    if (e.type === "entity.too.large") {
      return sendError(res, 413, "payload_too_large", `The body is larger than this route's limit of ${formatBytes(e.limit ?? 0)}`);
    }
    if (e.type === "entity.parse.failed") {
      return sendError(res, 400, "malformed_json", `The body is not valid JSON: ${e.message}`);
    }
    if (error instanceof AppError) {
      if (error.retryAfterSeconds) res.setHeader("Retry-After", String(error.retryAfterSeconds));
      return sendError(res, APP_ERROR_STATUS[error.code].http, error.apiCode ?? error.code.toLowerCase(), error.message, error.details);
    }
    if (isDatabaseUnavailable(error)) {
      log.warn({ err: error, path: req.path }, "database unavailable");
      res.setHeader("Retry-After", "5");
      return sendError(res, 503, "unavailable", "The database is unavailable; try again shortly");
    }
    if (typeof e.status === "number" && e.status >= 400 && e.status < 500) {
      return sendError(res, e.status, "bad_request", e.message ?? "Bad request");
    }
    log.error({ err: error, method: req.method, path: req.path }, "request failed");
    return sendError(res, 500, "internal", "Internal error: the details are in the server log");
  };
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006"]);

/** Connection-level failures (Postgres down or restarting), as opposed to a query's own error. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (
    (typeof e?.code === "string" && UNAVAILABLE_CODES.has(e.code)) ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(e?.message ?? "")
  );
}
