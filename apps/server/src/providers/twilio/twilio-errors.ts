import { parseRetryAfter, providerRejectedReason, type SendOutcome } from "@herald/core";

/** How a Messages create failed, as far as the provider adapter can tell. */
export type TwilioFailure =
  /** Twilio answered with an error body `{ code, message, more_info, status }` (code null if unreadable). */
  | { kind: "rest"; status: number; code: number | null; retryAfter: string | null }
  /** No answer: a timeout, a reset, DNS. Twilio may still have accepted the message. */
  | { kind: "network"; code: string | null };

/** A failed create's outcome, and whether the number must be suppressed for STOP. */
export interface TwilioFailureOutcome {
  outcome: Exclude<SendOutcome, { kind: "sent" }>;
  suppressStop: boolean;
}

/** What Herald does with a Twilio error code (docs/providers.md and twilio-error-codes.md say why). */
export type TwilioErrorClass = "dead" | "stop" | "outage" | "retry";

/**
 * The codes Herald knows by name. Any other 4xx code is `dead`, any 5xx `retry`, so this table
 * lists the codes whose class differs from their HTTP status's, and the permanent ones operators
 * look up most, to document them.
 */
export const TWILIO_ERROR_CLASSES: Readonly<Record<number, TwilioErrorClass>> = {
  20003: "outage", // authentication failed: our credentials, not this message
  20429: "retry", // too many requests: "safe to retry after backing off"
  21211: "dead", // invalid 'To' number
  21408: "dead", // geo permissions do not allow this region
  21610: "stop", // the recipient replied STOP
  21612: "dead", // 'To' unroutable from this 'From'
  21614: "dead", // 'To' is not a mobile number
  21635: "dead", // 'To' cannot be a landline
  30002: "outage", // account suspended
};

const TIMEOUT_CODES = new Set(["ETIMEDOUT", "ECONNABORTED", "ESOCKETTIMEDOUT", "UND_ERR_CONNECT_TIMEOUT"]);

/** The class of a REST error: its code's row when there is one, else what its HTTP status implies. */
export function twilioErrorClass(status: number, code: number | null): TwilioErrorClass {
  const known = code === null ? undefined : TWILIO_ERROR_CLASSES[code];
  if (known) return known;
  if (status === 401) return "outage";
  if (status === 429 || status === 408 || status >= 500) return "retry";
  if (status >= 400) return "dead";
  // A 1xx/3xx is a misconfigured base URL or proxy, not a verdict on the message.
  return "retry";
}

/** Maps a failed create onto Herald's outcome. Pure: `now` only reads an HTTP-date Retry-After. */
export function classifyTwilioFailure(failure: TwilioFailure, now: Date): TwilioFailureOutcome {
  if (failure.kind === "network") {
    const reason = failure.code && TIMEOUT_CODES.has(failure.code) ? "timeout" : "network_error";
    return { outcome: { kind: "retry", reason, ...(failure.code ? { providerCode: failure.code.slice(0, 64) } : {}) }, suppressStop: false };
  }
  const providerCode = String(failure.code ?? failure.status);
  const errorClass = twilioErrorClass(failure.status, failure.code);
  switch (errorClass) {
    case "dead":
      return { outcome: { kind: "dead", reason: providerRejectedReason(providerCode), providerCode }, suppressStop: false };
    case "stop":
      return { outcome: { kind: "dead", reason: providerRejectedReason(providerCode), providerCode }, suppressStop: true };
    case "outage":
      return { outcome: { kind: "outage", reason: "credentials_outage", providerCode }, suppressStop: false };
    case "retry": {
      const afterMs = parseRetryAfter(failure.retryAfter, now);
      const reason = failure.code === 20429 || failure.status === 429 ? "throttled" : `http_${failure.status}`;
      return { outcome: { kind: "retry", reason, providerCode, ...(afterMs === undefined ? {} : { afterMs }) }, suppressStop: false };
    }
  }
}

/**
 * Reads what the SDK threw: a RestException (status, code) for an HTTP answer, an axios error
 * (code, no status) for a network failure. `retryAfter` comes from the response headers the
 * provider captured, since RestException drops them.
 */
export function twilioFailureOf(error: unknown, retryAfter: string | null): TwilioFailure {
  const e = error as { status?: unknown; code?: unknown; response?: { status?: unknown } } | null;
  const status = typeof e?.status === "number" ? e.status : typeof e?.response?.status === "number" ? e.response.status : null;
  if (status !== null) {
    return { kind: "rest", status, code: typeof e?.code === "number" ? e.code : null, retryAfter };
  }
  return { kind: "network", code: typeof e?.code === "string" ? e.code : null };
}
