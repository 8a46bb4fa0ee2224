import { assertNever, parseRetryAfter, providerRejectedReason, type HttpFailureOutcome } from "@herald/core";

/** What Herald does about one SES v2 SendEmail failure. */
export type SesErrorAction = "throttled" | "retry" | "dead" | "outage";

/**
 * Every SendEmail error SES v2 (or AWS's common errors) names, and what it means for the message.
 * Source: test/fixtures/providers/ses-v2-errors.md unless the comment says otherwise. Adding a
 * name is all it takes to classify it; an unlisted name falls back to its HTTP status.
 */
export const SES_ERROR_ACTIONS = {
  // Throttling: the SDK would retry these by itself; the engine does instead (maxAttempts 1).
  TooManyRequestsException: "throttled", // 429, also ses-v2-error-too-many-requests.http
  ThrottlingException: "throttled",
  // A resource limit, or the daily sending quota (classified by message text below).
  LimitExceededException: "throttled",
  InternalServiceErrorException: "retry",
  // The message itself: retrying sends the same refusal.
  MessageRejected: "dead",
  MailFromDomainNotVerifiedException: "dead",
  BadRequestException: "dead",
  NotFoundException: "dead",
  // The account, not the message: defer everything without burning attempts.
  AccountSuspendedException: "outage",
  SendingPausedException: "outage",
  // AWS common errors for bad or expired credentials (not in the fixtures: the IAM/STS names).
  InvalidClientTokenId: "outage",
  UnrecognizedClientException: "outage",
  SignatureDoesNotMatch: "outage",
  IncompleteSignature: "outage",
  MissingAuthenticationToken: "outage",
  AccessDeniedException: "outage",
  ExpiredToken: "outage",
  ExpiredTokenException: "outage",
} as const satisfies Record<string, SesErrorAction>;

export type SesErrorName = keyof typeof SES_ERROR_ACTIONS;

/** An SDK or network failure reduced to what classification reads. */
export interface SesFailure {
  /** The exception name (x-amzn-ErrorType, `__type`) or a Node error's name. */
  name: string;
  /** SES's HTTP status; absent when no answer arrived (network error, timeout). */
  httpStatus?: number;
  /** Node's error code for a network failure: ECONNRESET, ETIMEDOUT, … */
  code?: string;
  message?: string;
  retryAfter?: string;
}

// AWS's quota guidance: "wait for an interval of up to 10 minutes, and then retry".
const DAILY_QUOTA_WAIT_MS = 10 * 60_000;
const TIMEOUT_NAMES = new Set(["TimeoutError", "RequestTimeout", "RequestTimeoutException"]);
const TIMEOUT_CODES = new Set(["ETIMEDOUT", "ESOCKETTIMEDOUT", "ECONNABORTED"]);
// The SDK renames connection failures "TimeoutError" (so its retry logic retries them): their
// Node code tells a reset from a timeout.
const CONNECTION_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

function isKnown(name: string): name is SesErrorName {
  return Object.hasOwn(SES_ERROR_ACTIONS, name);
}

/** A provider code fit for `provider_rejected:<code>` and the attempt log (letters, digits, `_.-`). */
function providerCodeOf(failure: SesFailure): string {
  const cleaned = failure.name.replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 64);
  return cleaned || (failure.httpStatus ? String(failure.httpStatus) : "Unknown");
}

/** The outcome of one failed SendEmail call; pure (the clock is passed in for Retry-After dates). */
export function classifySesFailure(failure: SesFailure, now: Date): HttpFailureOutcome {
  const providerCode = providerCodeOf(failure);
  const afterMs = parseRetryAfter(failure.retryAfter, now);
  const retry = (reason: string, wait = afterMs): HttpFailureOutcome =>
    wait === undefined ? { kind: "retry", reason, providerCode } : { kind: "retry", reason, afterMs: wait, providerCode };

  if (isKnown(failure.name)) {
    const action = SES_ERROR_ACTIONS[failure.name];
    switch (action) {
      case "throttled":
        if (/daily message quota/i.test(failure.message ?? "")) return retry("daily_quota_exceeded", afterMs ?? DAILY_QUOTA_WAIT_MS);
        return retry("throttled");
      case "retry":
        return retry(failure.httpStatus ? `http_${failure.httpStatus}` : "provider_error");
      case "dead":
        return { kind: "dead", reason: providerRejectedReason(providerCode), providerCode };
      case "outage":
        return { kind: "outage", reason: "credentials_outage", providerCode };
      default:
        return assertNever(action);
    }
  }

  const status = failure.httpStatus;
  if (status === undefined) {
    // No answer: the request may or may not have reached SES (SendEmail has no idempotency key).
    const code = failure.code ?? "";
    const timedOut = TIMEOUT_CODES.has(code) || (!CONNECTION_CODES.has(code) && TIMEOUT_NAMES.has(failure.name));
    return { kind: "retry", reason: timedOut ? "timeout" : "network_error", providerCode: (failure.code ?? providerCode).slice(0, 64) };
  }
  if (status === 429) return retry("throttled");
  if (status === 401 || status === 403) return { kind: "outage", reason: "credentials_outage", providerCode };
  if (status === 408 || status >= 500) return retry(`http_${status}`);
  if (status >= 400) return { kind: "dead", reason: providerRejectedReason(providerCode), providerCode };
  // 1xx/3xx: a misconfigured endpoint (a proxy), not a verdict on the message.
  return retry(`http_${status}`);
}

/** Reads an AWS SDK v3 service exception, or a Node network error, into a `SesFailure`. */
export function sesFailureOf(error: unknown): SesFailure {
  const e = (error ?? {}) as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
    $metadata?: { httpStatusCode?: unknown };
    $response?: { statusCode?: unknown; headers?: Record<string, unknown> };
  };
  const status = e.$metadata?.httpStatusCode ?? e.$response?.statusCode;
  const retryAfter = e.$response?.headers?.["retry-after"];
  return {
    name: typeof e.name === "string" && e.name ? e.name : "Error",
    ...(typeof status === "number" ? { httpStatus: status } : {}),
    ...(typeof e.code === "string" ? { code: e.code } : {}),
    ...(typeof e.message === "string" ? { message: e.message } : {}),
    ...(typeof retryAfter === "string" ? { retryAfter } : {}),
  };
}
