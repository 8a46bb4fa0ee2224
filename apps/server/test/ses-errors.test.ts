import { describe, expect, it } from "vitest";
import { classifySesFailure, SES_ERROR_ACTIONS, sesFailureOf, type SesFailure } from "../src/providers/ses/ses-errors.ts";

const NOW = new Date("2026-11-30T12:00:00Z");
const ERRORS_MD = "ses-v2-errors.md";
const TOO_MANY = "ses-v2-error-too-many-requests.http";
const COMMON = "AWS common errors (not in the fixtures)";

// One row per line of test/fixtures/providers/ses-v2-errors.md (and the credential errors the brief adds).
const ROWS: Array<{ source: string; failure: SesFailure; expected: ReturnType<typeof classifySesFailure> }> = [
  {
    source: TOO_MANY,
    failure: { name: "TooManyRequestsException", httpStatus: 429, message: "Maximum sending rate exceeded." },
    expected: { kind: "retry", reason: "throttled", providerCode: "TooManyRequestsException" },
  },
  {
    source: `${TOO_MANY} + a Retry-After header`,
    failure: { name: "TooManyRequestsException", httpStatus: 429, retryAfter: "7" },
    expected: { kind: "retry", reason: "throttled", afterMs: 7000, providerCode: "TooManyRequestsException" },
  },
  {
    source: ERRORS_MD,
    failure: { name: "ThrottlingException", httpStatus: 400, message: "Maximum sending rate exceeded." },
    expected: { kind: "retry", reason: "throttled", providerCode: "ThrottlingException" },
  },
  {
    source: ERRORS_MD,
    failure: { name: "LimitExceededException", httpStatus: 400, message: "There are too many instances of the specified resource type." },
    expected: { kind: "retry", reason: "throttled", providerCode: "LimitExceededException" },
  },
  {
    source: `${ERRORS_MD} (quota docs: "wait … up to 10 minutes")`,
    failure: { name: "LimitExceededException", httpStatus: 400, message: "Daily message quota exceeded." },
    expected: { kind: "retry", reason: "daily_quota_exceeded", afterMs: 600_000, providerCode: "LimitExceededException" },
  },
  {
    source: ERRORS_MD,
    failure: { name: "SendingPausedException", httpStatus: 400 },
    expected: { kind: "outage", reason: "credentials_outage", providerCode: "SendingPausedException" },
  },
  {
    source: ERRORS_MD,
    failure: { name: "AccountSuspendedException", httpStatus: 400 },
    expected: { kind: "outage", reason: "credentials_outage", providerCode: "AccountSuspendedException" },
  },
  {
    source: ERRORS_MD,
    failure: { name: "MessageRejected", httpStatus: 400, message: "Email address is not verified." },
    expected: { kind: "dead", reason: "provider_rejected:MessageRejected", providerCode: "MessageRejected" },
  },
  {
    source: ERRORS_MD,
    failure: { name: "MailFromDomainNotVerifiedException", httpStatus: 400 },
    expected: { kind: "dead", reason: "provider_rejected:MailFromDomainNotVerifiedException", providerCode: "MailFromDomainNotVerifiedException" },
  },
  {
    source: ERRORS_MD,
    failure: { name: "BadRequestException", httpStatus: 400 },
    expected: { kind: "dead", reason: "provider_rejected:BadRequestException", providerCode: "BadRequestException" },
  },
  {
    source: ERRORS_MD,
    failure: { name: "NotFoundException", httpStatus: 404 },
    expected: { kind: "dead", reason: "provider_rejected:NotFoundException", providerCode: "NotFoundException" },
  },
  {
    source: ERRORS_MD,
    failure: { name: "InternalServiceErrorException", httpStatus: 500 },
    expected: { kind: "retry", reason: "http_500", providerCode: "InternalServiceErrorException" },
  },
  {
    source: `${ERRORS_MD} (5xx row, a name SES does not list)`,
    failure: { name: "ServiceUnavailable", httpStatus: 503, retryAfter: "Sun, 30 Nov 2026 12:00:30 GMT" },
    expected: { kind: "retry", reason: "http_503", afterMs: 30_000, providerCode: "ServiceUnavailable" },
  },
  {
    source: `${ERRORS_MD} (TimeoutError row)`,
    failure: { name: "TimeoutError", message: "Connection timed out after 15000 ms" },
    expected: { kind: "retry", reason: "timeout", providerCode: "TimeoutError" },
  },
  {
    source: `${ERRORS_MD} (ETIMEDOUT row)`,
    failure: { name: "Error", code: "ETIMEDOUT" },
    expected: { kind: "retry", reason: "timeout", providerCode: "ETIMEDOUT" },
  },
  {
    source: `${ERRORS_MD} (ECONNRESET row)`,
    failure: { name: "Error", code: "ECONNRESET" },
    expected: { kind: "retry", reason: "network_error", providerCode: "ECONNRESET" },
  },
  {
    source: `${ERRORS_MD} (ECONNRESET row, as the SDK reports a dropped socket)`,
    failure: { name: "TimeoutError", code: "ECONNRESET", message: "socket hang up" },
    expected: { kind: "retry", reason: "network_error", providerCode: "ECONNRESET" },
  },
  {
    source: `${ERRORS_MD} (EPIPE row)`,
    failure: { name: "Error", code: "EPIPE" },
    expected: { kind: "retry", reason: "network_error", providerCode: "EPIPE" },
  },
  ...(["InvalidClientTokenId", "UnrecognizedClientException", "SignatureDoesNotMatch", "AccessDeniedException", "ExpiredTokenException"] as const).map(
    (name) => ({
      source: COMMON,
      failure: { name, httpStatus: name === "UnrecognizedClientException" ? 400 : 403 },
      expected: { kind: "outage", reason: "credentials_outage", providerCode: name } as const,
    }),
  ),
  {
    source: `${COMMON}: any 403`,
    failure: { name: "SomethingForbidden", httpStatus: 403 },
    expected: { kind: "outage", reason: "credentials_outage", providerCode: "SomethingForbidden" },
  },
  {
    source: "an unlisted 4xx is the message's fault",
    failure: { name: "ConflictException", httpStatus: 409 },
    expected: { kind: "dead", reason: "provider_rejected:ConflictException", providerCode: "ConflictException" },
  },
  {
    source: "an unlisted 429",
    failure: { name: "SlowDown", httpStatus: 429 },
    expected: { kind: "retry", reason: "throttled", providerCode: "SlowDown" },
  },
];

describe("classifySesFailure, row by row", () => {
  it.each(ROWS)("$failure.name ($failure.httpStatus) from $source", ({ failure, expected }) => {
    expect(classifySesFailure(failure, NOW)).toEqual(expected);
  });

  it("has a test row for every name in the table", () => {
    const tested = new Set(ROWS.map((r) => r.failure.name));
    const untested = Object.keys(SES_ERROR_ACTIONS).filter((name) => !tested.has(name));
    // The remaining credential spellings behave like their tested siblings.
    expect(untested.sort()).toEqual(["ExpiredToken", "IncompleteSignature", "MissingAuthenticationToken"]);
    for (const name of untested) {
      expect(classifySesFailure({ name, httpStatus: 403 }, NOW)).toEqual({ kind: "outage", reason: "credentials_outage", providerCode: name });
    }
  });

  it("keeps a provider code within the reason-code alphabet", () => {
    const outcome = classifySesFailure({ name: "Weird Name:with/junk", httpStatus: 400 }, NOW);
    expect(outcome).toEqual({ kind: "dead", reason: "provider_rejected:WeirdNamewithjunk", providerCode: "WeirdNamewithjunk" });
  });
});

describe("sesFailureOf", () => {
  it("reads an SDK service exception: name, status, Retry-After", () => {
    const error = Object.assign(new Error("Maximum sending rate exceeded."), {
      name: "TooManyRequestsException",
      $metadata: { httpStatusCode: 429 },
      $response: { statusCode: 429, headers: { "retry-after": "3" } },
    });
    expect(sesFailureOf(error)).toEqual({ name: "TooManyRequestsException", httpStatus: 429, message: "Maximum sending rate exceeded.", retryAfter: "3" });
  });

  it("reads a Node network error: no status, its code", () => {
    const error = Object.assign(new Error("socket hang up"), { code: "ECONNRESET", $metadata: { attempts: 1 } });
    expect(sesFailureOf(error)).toEqual({ name: "Error", code: "ECONNRESET", message: "socket hang up" });
  });

  it("tolerates a thrown non-error", () => {
    expect(sesFailureOf(undefined)).toEqual({ name: "Error" });
  });
});
