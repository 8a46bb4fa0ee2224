import { isTRPCClientError } from "@trpc/client";

/** The tRPC error codes the dashboard reacts to; anything else is shown as a plain message. */
export type ErrorCode =
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "BAD_REQUEST"
  | "CONFLICT"
  | "TOO_MANY_REQUESTS";

/** The tRPC error code of a failed call, or null for network failures and non-tRPC errors. */
export function getErrorCode(error: unknown): string | null {
  if (!isTRPCClientError(error)) return null;
  const data: unknown = error.data;
  if (typeof data !== "object" || data === null || !("code" in data)) return null;
  return typeof data.code === "string" ? data.code : null;
}

export function hasErrorCode(error: unknown, code: ErrorCode): boolean {
  return getErrorCode(error) === code;
}

/** The HTTP status the server answered with, when it answered at all. */
export function getHttpStatus(error: unknown): number | null {
  if (!isTRPCClientError(error)) return null;
  const data: unknown = error.data;
  if (typeof data !== "object" || data === null || !("httpStatus" in data)) return null;
  return typeof data.httpStatus === "number" ? data.httpStatus : null;
}

/** A sentence fit to show the member. */
export function getErrorMessage(error: unknown): string {
  if (isTRPCClientError(error)) {
    // A tRPC error without data never reached a procedure: the request itself failed.
    if (error.data == null) return "Could not reach the Herald server. Check your connection and try again.";
    return error.message;
  }
  if (error instanceof Error && error.message) return error.message;
  return "Something went wrong.";
}

