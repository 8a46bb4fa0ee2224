import { parseRetryAfter, providerRejectedReason, type SendOutcome } from "@herald/core";

/** Why a token is dead for good; the dispatcher deactivates it with this reason. */
export type InvalidTokenReason = "unregistered" | "invalid_registration_token" | "sender_id_mismatch";

/** What one FCM v1 `messages:send` for one token came to. */
export type FcmTokenResult =
  | { kind: "accepted"; name: string }
  /** The token will never work: deactivate it. */
  | { kind: "invalid_token"; reason: InvalidTokenReason; code: string }
  /** Try again later (`afterMs` when FCM said how long). */
  | { kind: "transient"; reason: string; code: string; afterMs?: number }
  /** The message itself is wrong: no token will take it. */
  | { kind: "payload"; code: string }
  /** Our credentials or project configuration (or APNs/web-push credentials): not this token's fault. */
  | { kind: "auth"; code: string };

/** FCM's answer to one request. */
export interface FcmResponse {
  status: number;
  body: string;
  retryAfter: string | null;
}

/** FCM asks for at least a minute of back-off after QUOTA_EXCEEDED. */
export const QUOTA_BACKOFF_MS = 60_000;

interface FcmErrorBody {
  /** `details[].errorCode` of the FcmError detail, else the canonical `error.status`. */
  code: string | null;
  message: string;
  fieldViolations: Array<{ field: string; description: string }>;
}

/** Reads FCM's error envelope `{ error: { code, message, status, details } }`; tolerant of anything else. */
export function fcmErrorBody(body: string): FcmErrorBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { code: null, message: "", fieldViolations: [] };
  }
  const error = (parsed as { error?: Record<string, unknown> } | null)?.error;
  if (!error || typeof error !== "object") return { code: null, message: "", fieldViolations: [] };
  const details = Array.isArray(error.details) ? (error.details as Array<Record<string, unknown>>) : [];
  const fcmError = details.find((d) => typeof d?.["@type"] === "string" && (d["@type"] as string).endsWith("google.firebase.fcm.v1.FcmError"));
  const fieldViolations = details
    .flatMap((d) => (Array.isArray(d?.fieldViolations) ? (d.fieldViolations as Array<Record<string, unknown>>) : []))
    .map((v) => ({ field: String(v?.field ?? ""), description: String(v?.description ?? "") }));
  const code = typeof fcmError?.errorCode === "string" ? fcmError.errorCode : typeof error.status === "string" ? error.status : null;
  return { code, message: typeof error.message === "string" ? error.message : "", fieldViolations };
}

// INVALID_ARGUMENT covers both a bad token and a bad payload (firebase-admin maps both to
// messaging/invalid-argument): only the message, or a field violation on `message.token`, tells.
const INVALID_TOKEN_MESSAGE = /registration token/i;

function isTokenProblem(error: FcmErrorBody): boolean {
  return INVALID_TOKEN_MESSAGE.test(error.message) || error.fieldViolations.some((v) => v.field === "message.token");
}

/** One token's result from FCM's answer (see docs/providers.md for the table). Pure. */
export function classifyFcmResponse(response: FcmResponse, now: Date): FcmTokenResult {
  const { status } = response;
  if (status >= 200 && status < 300) {
    try {
      const name = (JSON.parse(response.body) as { name?: unknown }).name;
      if (typeof name === "string" && name.length > 0) return { kind: "accepted", name };
    } catch {
      // fall through: a 2xx without a message name is not FCM talking (a proxy?)
    }
    return { kind: "transient", reason: "malformed_response", code: String(status) };
  }
  const error = fcmErrorBody(response.body);
  const code = error.code ?? String(status);
  const afterMs = parseRetryAfter(response.retryAfter, now);
  const transient = (reason: string, floorMs = 0): FcmTokenResult => {
    const wait = afterMs === undefined ? (floorMs > 0 ? floorMs : undefined) : Math.max(afterMs, floorMs);
    return { kind: "transient", reason, code, ...(wait === undefined ? {} : { afterMs: wait }) };
  };
  switch (error.code) {
    case "UNREGISTERED":
      return { kind: "invalid_token", reason: "unregistered", code };
    case "SENDER_ID_MISMATCH":
      return { kind: "invalid_token", reason: "sender_id_mismatch", code };
    case "INVALID_ARGUMENT":
      return isTokenProblem(error) ? { kind: "invalid_token", reason: "invalid_registration_token", code } : { kind: "payload", code };
    case "THIRD_PARTY_AUTH_ERROR":
      return { kind: "auth", code };
    case "QUOTA_EXCEEDED":
      return transient("quota_exceeded", QUOTA_BACKOFF_MS);
    case "UNAVAILABLE":
      return transient("unavailable");
    case "INTERNAL":
      return transient("internal");
    case "UNSPECIFIED_ERROR":
      return transient("unspecified_error");
  }
  if (status === 429) return transient("http_429", QUOTA_BACKOFF_MS);
  // Not a token's verdict: our service account or project (a 404 without UNREGISTERED is a wrong
  // project id or endpoint, and must never deactivate tokens).
  if (status === 401 || status === 403 || status === 404) return { kind: "auth", code };
  if (status === 408 || status >= 500) return transient(`http_${status}`);
  if (status >= 400) return { kind: "payload", code };
  return transient(`http_${status}`);
}

const TIMEOUT_ERRORS = new Set(["TimeoutError", "AbortError"]);

/** A request that got no answer: a timeout or a dropped connection. FCM may have accepted it. */
export function classifyFcmNetworkError(error: unknown): FcmTokenResult {
  const e = error as { name?: unknown; cause?: { code?: unknown } } | null;
  if (typeof e?.name === "string" && TIMEOUT_ERRORS.has(e.name)) return { kind: "transient", reason: "timeout", code: "timeout" };
  const code = typeof e?.cause?.code === "string" ? e.cause.code.slice(0, 64) : "network_error";
  return { kind: "transient", reason: "network_error", code };
}

/**
 * The OAuth token exchange failed: a refusal (400 invalid_grant, 401, 403: a revoked or deleted
 * key) is an outage; anything else (Google unreachable, 5xx) is worth a retry.
 */
export function classifyCredentialError(error: unknown): Exclude<SendOutcome, { kind: "sent" | "dead" }> {
  const e = error as { status?: unknown; response?: { status?: unknown } } | null;
  const status = typeof e?.response?.status === "number" ? e.response.status : typeof e?.status === "number" ? e.status : null;
  if (status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return { kind: "outage", reason: "credentials_outage", providerCode: `oauth_${status}` };
  }
  return { kind: "retry", reason: "oauth_unavailable", ...(status === null ? {} : { providerCode: `oauth_${status}` }) };
}

/** One message's outcome from its tokens' results. */
export interface CombinedResult {
  outcome: SendOutcome;
  invalidTokens: Array<{ token: string; reason: InvalidTokenReason }>;
}

/**
 * Success when at least one token accepted (the message id is the first accepted name). When
 * none did: an outage if any failed on credentials, else a retry if any failure was transient
 * (after the longest wait asked for), else dead: a payload FCM refuses, or no valid token left.
 * `mismatchIsOutage`: SENDER_ID_MISMATCH on most of the call's tokens means our project is the
 * wrong one, so those tokens count as credential failures and are kept.
 */
export function combineTokenResults(tokens: readonly string[], results: readonly FcmTokenResult[], mismatchIsOutage: boolean): CombinedResult {
  const invalidTokens: CombinedResult["invalidTokens"] = [];
  // Declared with `as`: assignments inside the loop's switch must not be narrowed away.
  let accepted = null as string | null;
  let auth = null as string | null;
  let payload = null as string | null;
  let invalid = null as string | null;
  let transient = null as { reason: string; code: string; afterMs?: number } | null;
  for (const [i, result] of results.entries()) {
    switch (result.kind) {
      case "accepted":
        accepted ??= result.name;
        break;
      case "invalid_token":
        if (result.reason === "sender_id_mismatch" && mismatchIsOutage) {
          auth ??= result.code;
        } else {
          invalidTokens.push({ token: tokens[i]!, reason: result.reason });
          invalid ??= result.code;
        }
        break;
      case "transient": {
        const longest = Math.max(transient?.afterMs ?? -1, result.afterMs ?? -1);
        transient = { reason: transient?.reason ?? result.reason, code: transient?.code ?? result.code, ...(longest >= 0 ? { afterMs: longest } : {}) };
        break;
      }
      case "payload":
        payload ??= result.code;
        break;
      case "auth":
        auth ??= result.code;
        break;
    }
  }
  const providerCode = (code: string) => code.slice(0, 64);
  let outcome: SendOutcome;
  if (accepted !== null) outcome = { kind: "sent", providerMessageId: accepted };
  else if (auth !== null) outcome = { kind: "outage", reason: "credentials_outage", providerCode: providerCode(auth) };
  else if (transient !== null) outcome = { kind: "retry", reason: transient.reason, providerCode: providerCode(transient.code), ...(transient.afterMs === undefined ? {} : { afterMs: transient.afterMs }) };
  else if (payload !== null) outcome = { kind: "dead", reason: providerRejectedReason(payload), providerCode: providerCode(payload) };
  else if (invalid !== null) outcome = { kind: "dead", reason: providerRejectedReason(invalid), providerCode: providerCode(invalid) };
  else outcome = { kind: "dead", reason: "unreachable:device" };
  return { outcome, invalidTokens };
}
