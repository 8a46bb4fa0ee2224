import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";

/** The expected failures a procedure or route may report; anything else is a bug (500). */
export type AppErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "UNPROCESSABLE"
  | "TOO_MANY_REQUESTS"
  | "UNAVAILABLE";

/** One map from code to tRPC code and HTTP status, used by both the tRPC and REST layers. */
export const APP_ERROR_STATUS: Record<AppErrorCode, { trpc: TRPC_ERROR_CODE_KEY; http: number }> = {
  BAD_REQUEST: { trpc: "BAD_REQUEST", http: 400 },
  UNAUTHORIZED: { trpc: "UNAUTHORIZED", http: 401 },
  FORBIDDEN: { trpc: "FORBIDDEN", http: 403 },
  NOT_FOUND: { trpc: "NOT_FOUND", http: 404 },
  CONFLICT: { trpc: "CONFLICT", http: 409 },
  PAYLOAD_TOO_LARGE: { trpc: "PAYLOAD_TOO_LARGE", http: 413 },
  UNSUPPORTED_MEDIA_TYPE: { trpc: "UNSUPPORTED_MEDIA_TYPE", http: 415 },
  UNPROCESSABLE: { trpc: "UNPROCESSABLE_CONTENT", http: 422 },
  TOO_MANY_REQUESTS: { trpc: "TOO_MANY_REQUESTS", http: 429 },
  UNAVAILABLE: { trpc: "SERVICE_UNAVAILABLE", http: 503 },
};

export interface AppErrorOptions {
  details?: unknown;
  /** Seconds a client should wait before retrying (429, 503). */
  retryAfterSeconds?: number;
  /** The REST API's enumerated code (docs/api.md) when more precise than the status's own. */
  apiCode?: string;
}

export class AppError extends Error {
  override name = "AppError";
  readonly details?: unknown;
  readonly retryAfterSeconds?: number;
  readonly apiCode?: string;
  readonly code: AppErrorCode;

  constructor(code: AppErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message);
    this.code = code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.apiCode = options.apiCode;
  }
}
