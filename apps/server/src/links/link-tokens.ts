import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import type { Logger } from "pino";
import { z } from "zod";
import type { Env } from "../env.ts";

const Id = z.string().regex(/^\d{1,18}$/);

/** What each kind of link carries. Never an address: a forwarded email leaks no one's email. */
const PAYLOAD_SCHEMAS = {
  /** The opt-out a List-Unsubscribe link stands for; does not expire. */
  unsubscribe: z.strictObject({ n: Id, u: Id, c: z.string().min(1).max(64), ch: z.enum(["push", "email", "sms"]) }),
  open: z.strictObject({ n: Id }),
  /** The destination is signed into the token, so /t/c can never redirect anywhere else. */
  click: z.strictObject({ n: Id, url: z.string().max(4096).refine(isHttpUrl, "must be an http(s) URL") }),
} as const;

export type LinkPurpose = keyof typeof PAYLOAD_SCHEMAS;
export type LinkPayload<P extends LinkPurpose> = z.infer<(typeof PAYLOAD_SCHEMAS)[P]>;

/** Signs and verifies the opaque part of unsubscribe and tracking links. */
export interface LinkTokens {
  sign<P extends LinkPurpose>(purpose: P, payload: LinkPayload<P>): string;
  /** The payload of a genuine token of this purpose; null for anything else. */
  verify<P extends LinkPurpose>(purpose: P, token: string): LinkPayload<P> | null;
}

const SIGNATURE_BYTES = 32;
const TOKEN = /^([A-Za-z0-9_-]{2,8192})\.([A-Za-z0-9_-]{43})$/;

/**
 * Tokens `base64url(JSON payload).base64url(HMAC-SHA256)`, one HKDF-derived key per purpose: an
 * open token is never a valid click or unsubscribe token, and none is valid for the secret box
 * that shares HERALD_SECRET_KEY.
 */
export function createLinkTokens(secret: string | Buffer): LinkTokens {
  const keys = Object.fromEntries(
    (Object.keys(PAYLOAD_SCHEMAS) as LinkPurpose[]).map((purpose) => [
      purpose,
      Buffer.from(hkdfSync("sha256", secret, "herald-links-v1", `herald:link:${purpose}`, 32)),
    ]),
  ) as Record<LinkPurpose, Buffer>;
  const mac = (purpose: LinkPurpose, body: string) => createHmac("sha256", keys[purpose]).update(body).digest();

  return {
    sign<P extends LinkPurpose>(purpose: P, payload: LinkPayload<P>): string {
      const body = Buffer.from(JSON.stringify(PAYLOAD_SCHEMAS[purpose].parse(payload))).toString("base64url");
      return `${body}.${mac(purpose, body).toString("base64url")}`;
    },
    verify<P extends LinkPurpose>(purpose: P, token: string): LinkPayload<P> | null {
      const match = TOKEN.exec(token);
      if (!match) return null;
      const [, body, signature] = match as unknown as [string, string, string];
      const given = Buffer.from(signature, "base64url");
      // A non-canonical spelling of the same bytes is refused, so every token has one form.
      if (given.length !== SIGNATURE_BYTES || given.toString("base64url") !== signature) return null;
      if (!timingSafeEqual(given, mac(purpose, body))) return null;
      let json: unknown;
      try {
        json = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
      } catch {
        return null;
      }
      const parsed = PAYLOAD_SCHEMAS[purpose].safeParse(json);
      return parsed.success ? (parsed.data as LinkPayload<P>) : null;
    },
  };
}

/** Whether a string is an absolute http: or https: URL (the only destinations a click token may hold). */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

// Per process, so the worker that mints links and the HTTP server that honours them agree when
// HERALD_ROLE=all runs both in one process without HERALD_SECRET_KEY.
let developmentKey: Buffer | null = null;
const warned = new Set<string>();

/**
 * The link tokens of this process: keyed by HERALD_SECRET_KEY; without it, a random per-process
 * key in development (links die with the process) and no links at all in production.
 */
export function linkTokensFor(env: Pick<Env, "HERALD_SECRET_KEY" | "HERALD_MODE">, log: Logger): LinkTokens | null {
  if (env.HERALD_SECRET_KEY) return createLinkTokens(env.HERALD_SECRET_KEY);
  if (env.HERALD_MODE === "production") {
    once("production", () =>
      log.error(
        "HERALD_SECRET_KEY is not set: unsubscribe and tracking links are OFF (no List-Unsubscribe headers, no open or click tracking; /u and /t/c answer 404). Set it to enable them.",
      ),
    );
    return null;
  }
  developmentKey ??= randomBytes(32);
  once("development", () =>
    log.warn("HERALD_SECRET_KEY is not set: unsubscribe and tracking links use a random per-process key and stop working after a restart"),
  );
  return createLinkTokens(developmentKey);
}

function once(key: string, emit: () => void): void {
  if (warned.has(key)) return;
  warned.add(key);
  emit();
}
