import { z } from "zod";

const reason = z.string().min(1, "must not be empty").max(1000, "must be at most 1000 characters");
const providerCode = z.string().min(1, "must not be empty").max(64, "must be at most 64 characters");

/** What a provider adapter returns for one attempt; the engine switches on it exhaustively. */
export const SendOutcomeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("sent"), providerMessageId: z.string().min(1, "must not be empty").max(256) }),
  z.object({
    kind: z.literal("retry"),
    afterMs: z.number().int().nonnegative().optional(),
    reason,
    providerCode: providerCode.optional(),
  }),
  z.object({ kind: z.literal("dead"), reason, providerCode: providerCode.optional() }),
  z.object({ kind: z.literal("outage"), reason, providerCode: providerCode.optional() }),
]);
export type SendOutcome = z.infer<typeof SendOutcomeSchema>;

/** A transient failure: try again, after `afterMs` when the provider said how long. */
export type RetryOutcome = Extract<SendOutcome, { kind: "retry" }>;

/**
 * The provider asked Herald to slow down, not to give up on this message: a throttle (429, a
 * quota) or any refusal that said how long to wait (Retry-After). Such a refusal spends no
 * attempt: a storm longer than max attempts × its wait would otherwise dead-letter messages
 * the provider never judged.
 */
export function isBackpressure(outcome: RetryOutcome): boolean {
  return outcome.afterMs !== undefined || outcome.reason === "throttled";
}

/** The outcomes an HTTP status alone can decide; success is left to the caller. */
export type HttpFailureOutcome = Exclude<SendOutcome, { kind: "sent" }>;

/** Marks a switch as exhaustive: adding a variant breaks the build where it is not handled. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
}

// FCM's guidance for a 429 without Retry-After.
const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
// The three HTTP-date forms a recipient must accept (RFC 9110 §5.6.7). Date.parse is not used:
// V8 reads strings such as "soon 5" as dates.
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const RFC_850 = /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

function httpDate(value: string, now: Date): number | undefined {
  let parts: [day: string, month: string, year: number, hour: string, minute: string, second: string] | null = null;
  let match: RegExpExecArray | null;
  if ((match = IMF_FIXDATE.exec(value))) {
    const [, day = "", month = "", year = "", hour = "", minute = "", second = ""] = match;
    parts = [day, month, Number(year), hour, minute, second];
  } else if ((match = RFC_850.exec(value))) {
    const [, day = "", month = "", yy = "", hour = "", minute = "", second = ""] = match;
    // RFC 9110: a two-digit year more than 50 years in the future belongs to the past century.
    let year = Math.floor(now.getUTCFullYear() / 100) * 100 + Number(yy);
    if (year > now.getUTCFullYear() + 50) year -= 100;
    parts = [day, month, year, hour, minute, second];
  } else if ((match = ASCTIME.exec(value))) {
    const [, month = "", day = "", hour = "", minute = "", second = "", year = ""] = match;
    parts = [day.trim(), month, Number(year), hour, minute, second];
  }
  if (!parts) return undefined;
  const [day, monthName, year, hour, minute, second] = parts;
  const month = MONTHS.indexOf(monthName);
  const [d, h, m, s] = [Number(day), Number(hour), Number(minute), Number(second)];
  if (month < 0 || h > 23 || m > 59 || s > 60) return undefined;
  const time = Date.UTC(year, month, d, h, m, s);
  // Date.UTC rolls 31 Feb over into March; such a date is garbage, not a date.
  return new Date(time).getUTCDate() === d ? time : undefined;
}

/**
 * Milliseconds to wait from a Retry-After header, in either form (seconds or an HTTP-date).
 * A date or a number in the past means "now" (0); anything unreadable is undefined.
 */
export function parseRetryAfter(header: string | null | undefined, now: Date): number | undefined {
  if (header == null) return undefined;
  const value = header.trim();
  if (/^-?\d+(\.\d+)?$/.test(value)) return Math.max(0, Math.ceil(Number(value) * 1000));
  const at = httpDate(value, now);
  return at === undefined ? undefined : Math.max(0, at - now.getTime());
}

/**
 * The outcome an HTTP status implies for a generic provider. 2xx is null: only the caller can
 * read the message id from the body. 401/403 are an outage (our credentials, not this message).
 */
export function classifyHttpStatus(status: number, retryAfterHeader: string | null | undefined, now: Date): HttpFailureOutcome | null {
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new RangeError(`${status} is not an HTTP status code (100 to 599)`);
  }
  if (status >= 200 && status < 300) return null;
  const providerCode = String(status);
  const afterMs = parseRetryAfter(retryAfterHeader, now);
  if (status === 429) return { kind: "retry", afterMs: afterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS, reason: "http_429", providerCode };
  if (status === 401 || status === 403) return { kind: "outage", reason: "credentials_outage", providerCode };
  if (status === 408 || status >= 500) {
    return afterMs === undefined
      ? { kind: "retry", reason: `http_${status}`, providerCode }
      : { kind: "retry", afterMs, reason: `http_${status}`, providerCode };
  }
  if (status >= 400) return { kind: "dead", reason: `provider_rejected:${status}`, providerCode };
  // 1xx and 3xx mean a misconfigured endpoint rather than a bad message: retrying lets the
  // breaker see a run of them, and max attempts bounds the cost.
  return { kind: "retry", reason: `http_${status}`, providerCode };
}
