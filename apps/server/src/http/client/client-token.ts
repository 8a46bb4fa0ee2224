import { createHmac, timingSafeEqual } from "node:crypto";

/** Why a client token was refused; each becomes a 401 whose message names it. */
export type ClientTokenProblem = "malformed" | "algorithm" | "signature" | "expiry_missing" | "expired" | "expiry_too_far" | "not_yet_valid" | "subject";

export type ClientTokenResult = { ok: true; userId: string } | { ok: false; problem: ClientTokenProblem };

/** The longest a client token may live: a leaked one is useless by tomorrow. */
export const MAX_CLIENT_TOKEN_SECONDS = 24 * 3600;
/** Clock skew tolerated between the customer's backend and Herald. */
const LEEWAY_SECONDS = 60;

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/**
 * Verifies a per-user client JWT: HS256 only (the header's alg is checked before anything else,
 * so `none`, RS256 with the secret as a "public key" and every other alg are refused), the
 * signature in constant time, `exp` required and at most 24 h ahead, `nbf` honoured, and `sub`
 * the customer's user id.
 */
export function verifyClientToken(token: string, secret: string, nowMs: number): ClientTokenResult {
  const parts = token.split(".");
  if (token.length > 4096 || parts.length !== 3 || !parts.every((p) => SEGMENT.test(p))) return { ok: false, problem: "malformed" };
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJson(headerPart);
  if (!header) return { ok: false, problem: "malformed" };
  // `crit` names extensions the verifier must understand (RFC 7515 §4.1.11); we understand none.
  if (header.alg !== "HS256" || header.crit !== undefined) return { ok: false, problem: "algorithm" };
  const expected = createHmac("sha256", secret).update(`${headerPart}.${payloadPart}`).digest();
  const given = Buffer.from(signaturePart, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, problem: "signature" };
  const claims = decodeJson(payloadPart);
  if (!claims) return { ok: false, problem: "malformed" };
  const now = nowMs / 1000;
  if (typeof claims.exp !== "number" || !Number.isFinite(claims.exp)) return { ok: false, problem: "expiry_missing" };
  if (claims.exp <= now - LEEWAY_SECONDS) return { ok: false, problem: "expired" };
  if (claims.exp > now + MAX_CLIENT_TOKEN_SECONDS + LEEWAY_SECONDS) return { ok: false, problem: "expiry_too_far" };
  if (claims.nbf !== undefined && (typeof claims.nbf !== "number" || claims.nbf > now + LEEWAY_SECONDS)) return { ok: false, problem: "not_yet_valid" };
  const sub = claims.sub;
  if (typeof sub !== "string" || sub.length < 1 || sub.length > 256 || /[\u0000-\u001F\u007F]/.test(sub)) return { ok: false, problem: "subject" };
  return { ok: true, userId: sub };
}

function decodeJson(segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The message a refused token's 401 carries. */
export const CLIENT_TOKEN_MESSAGES: Record<ClientTokenProblem, string> = {
  malformed: "The client token is not a JWT (header.payload.signature, base64url)",
  algorithm: 'Client tokens must be signed with HS256 ("alg": "HS256") and carry no "crit" header',
  signature: "The client token's signature does not match HERALD_CLIENT_SECRET",
  expiry_missing: 'The client token has no numeric "exp" claim; it is required',
  expired: "The client token has expired",
  expiry_too_far: 'The client token\'s "exp" is more than 24 hours ahead; mint short-lived tokens',
  not_yet_valid: 'The client token\'s "nbf" is in the future',
  subject: 'The client token\'s "sub" must be the user\'s id (1 to 256 characters)',
};
