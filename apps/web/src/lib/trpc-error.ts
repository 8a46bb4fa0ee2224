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


/**
 * What the server said about each field of a refused input, keyed by its path such as
 * `channels.0.content.subject`: zod's `data.fields`, or a service's `data.details.fields`.
 */
export function getFieldErrors(error: unknown): Map<string, string> {
  const found = new Map<string, string>();
  if (!isTRPCClientError(error)) return found;
  const data: unknown = error.data;
  if (typeof data !== "object" || data === null) return found;
  const details: unknown = "details" in data ? data.details : null;
  const fields: unknown =
    "fields" in data ? data.fields : typeof details === "object" && details !== null && "fields" in details ? details.fields : null;
  if (!Array.isArray(fields)) return found;
  for (const field of fields as unknown[]) {
    if (typeof field !== "object" || field === null || !("path" in field) || !("message" in field)) continue;
    if (typeof field.path === "string" && typeof field.message === "string" && !found.has(field.path)) found.set(field.path, field.message);
  }
  return found;
}
