import type { ErrorRequestHandler, Response } from "express";
import type { Logger } from "pino";
import { APP_ERROR_STATUS, AppError } from "../errors.ts";

/**
 * Every `error.code` the REST API answers with, its status and meaning (docs/api.md lists them
 * all; a test checks it does). Customers branch on these strings: never rename one.
 */
export const REST_ERROR_CODES = {
  invalid_request: { status: 400, meaning: "a field is missing, has the wrong type or an invalid value; details.fields names each" },
  malformed_json: { status: 400, meaning: "the body is not valid JSON; the message quotes the parser" },
  unauthorized: { status: 401, meaning: "no API key, or an unknown or revoked one" },
  forbidden: { status: 403, meaning: "the key's scope is too small for the route" },
  not_found: { status: 404, meaning: "no such route, or no such category, notification type, notification or device" },
  event_conflict: { status: 409, meaning: "this eventId was already received for this user with another payload" },
  alias_taken: { status: 409, meaning: "an alias (or a category key) already names another category" },
  payload_too_large: { status: 413, meaning: "the body is over the route's limit, named in the message" },
  unsupported_media_type: { status: 415, meaning: "the body is not sent as application/json (or in a charset other than UTF-8/16/32)" },
  unknown_type: { status: 422, meaning: "there is no notification type with this key" },
  unknown_category: { status: 422, meaning: "a category (or alias) named in the body does not exist" },
  mandatory_category: { status: 422, meaning: "a mandatory category cannot be switched off" },
  template_not_found: { status: 422, meaning: "a channel step names a template that does not exist, has no published version, or lacks that channel" },
  rate_limited: { status: 429, meaning: "the key is over its per-minute rate; wait Retry-After seconds" },
  outbox_backlog: { status: 429, meaning: "Herald's outbox is over its backlog limit; wait Retry-After seconds" },
  overloaded: { status: 429, meaning: "this Herald process is working on as many requests as it can take; wait Retry-After seconds" },
  internal: { status: 500, meaning: "a bug: the details are in the server log, never in the answer" },
  unavailable: { status: 503, meaning: "the database is unavailable; wait Retry-After seconds" },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type RestErrorCode = keyof typeof REST_ERROR_CODES;

/** REST errors are always `{ error: { code, message, details? } }`, never a stack trace. */
export function sendError(res: Response, status: number, code: RestErrorCode | "bad_origin", message: string, details?: unknown): void {
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
      const code = (error.apiCode ?? error.code.toLowerCase()) as RestErrorCode;
      return sendError(res, APP_ERROR_STATUS[error.code].http, code, error.message, error.details);
    }
    if (isDatabaseUnavailable(error)) {
      log.warn({ err: error, path: req.path }, "database unavailable");
      res.setHeader("Retry-After", "5");
      return sendError(res, 503, "unavailable", "The database is unavailable; try again shortly");
    }
    // body-parser's own refusals: an unsupported charset or Content-Encoding (415), an aborted
    // or miscounted body (400).
    if (typeof e.status === "number" && e.status >= 400 && e.status < 500) {
      const code = e.status === 415 ? "unsupported_media_type" : e.status === 413 ? "payload_too_large" : "invalid_request";
      return sendError(res, e.status, code, e.message ?? "Bad request");
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

// Node socket errors and SQLSTATEs of class 08 (connection), 57P0x (shutdown, crash, starting
// up) and 53300 (too many connections): the server, not the query, is the problem.
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006", "53300"]);
// The same failures as Prisma's pg driver adapter reports them (meta.driverAdapterError.cause.kind).
const UNAVAILABLE_ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end on the pool/i;

/** Connection-level failures (Postgres down, restarting, or the pool shut down), as opposed to a query's own error. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown } } } };
  const cause = e?.meta?.driverAdapterError?.cause;
  return (
    (typeof e?.code === "string" && UNAVAILABLE_CODES.has(e.code)) ||
    (typeof cause?.kind === "string" && UNAVAILABLE_ADAPTER_KINDS.has(cause.kind)) ||
    (cause?.kind === "postgres" && typeof cause.code === "string" && UNAVAILABLE_CODES.has(cause.code)) ||
    (typeof e?.message === "string" && UNAVAILABLE_MESSAGE.test(e.message))
  );
}
