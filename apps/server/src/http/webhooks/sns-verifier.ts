import { X509Certificate, verify, type KeyObject } from "node:crypto";
import https from "node:https";
import { z } from "zod";

const Common = {
  MessageId: z.string().min(1).max(500),
  TopicArn: z.string().min(1).max(1024),
  Message: z.string(),
  Timestamp: z.iso.datetime({ offset: true }),
  SignatureVersion: z.string().min(1).max(8),
  Signature: z.string().min(1).max(4096),
  SigningCertURL: z.string().min(1).max(2048),
};
const Confirmation = { ...Common, Token: z.string().min(1).max(2048), SubscribeURL: z.string().min(1).max(4096) };

/** The three message types SNS posts to an HTTP(S) subscriber; anything else is refused. */
export const SnsEnvelopeSchema = z.discriminatedUnion("Type", [
  z.object({ Type: z.literal("Notification"), ...Common, Subject: z.string().nullish(), UnsubscribeURL: z.string().optional() }),
  z.object({ Type: z.literal("SubscriptionConfirmation"), ...Confirmation }),
  z.object({ Type: z.literal("UnsubscribeConfirmation"), ...Confirmation }),
]);
export type SnsEnvelope = z.infer<typeof SnsEnvelopeSchema>;

/** Downloads a signing certificate (PEM text); injectable so tests serve their own. */
export type FetchCertificate = (url: string) => Promise<string>;

/** Why a message was refused; `certificate_unavailable` is ours or AWS's trouble, not a forgery. */
export type SnsRejection =
  | "unsupported_signature_version"
  | "signing_cert_url_not_sns"
  | "subscribe_url_not_sns"
  | "stale"
  | "from_the_future"
  | "certificate_unavailable"
  | "bad_certificate"
  | "bad_signature";

export type SnsVerification = { ok: true } | { ok: false; reason: SnsRejection };

// SNS's own endpoints: sns.<region>.amazonaws.com, and .com.cn in China. Not S3, not a suffix.
const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;
const MAX_AGE_MS = 60 * 60_000;
// SNS stamps the time it published; a little clock skew is tolerated, the future is not.
const MAX_CLOCK_SKEW_MS = 5 * 60_000;
const CACHE_LIMIT = 64;
const ALGORITHMS: Readonly<Record<string, string>> = { "1": "RSA-SHA1", "2": "RSA-SHA256" };

/**
 * The URL when it is an SNS endpoint Herald may call: https, the default port, no userinfo,
 * an SNS host; a certificate URL must also name a `.pem`. Decided on the text alone, before
 * any network I/O.
 */
export function snsUrl(text: string, kind: "certificate" | "subscribe"): URL | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.username || url.password || url.port !== "") return null;
  if (!SNS_HOST.test(url.hostname)) return null;
  if (kind === "certificate" && !url.pathname.endsWith(".pem")) return null;
  return url;
}

/** AWS's string to sign: the type's fields in byte order, each `name\nvalue\n`. */
export function snsStringToSign(envelope: SnsEnvelope): string {
  const pairs: Array<[string, string | null | undefined]> =
    envelope.Type === "Notification"
      ? [
          ["Message", envelope.Message],
          ["MessageId", envelope.MessageId],
          ["Subject", envelope.Subject],
          ["Timestamp", envelope.Timestamp],
          ["TopicArn", envelope.TopicArn],
          ["Type", envelope.Type],
        ]
      : [
          ["Message", envelope.Message],
          ["MessageId", envelope.MessageId],
          ["SubscribeURL", envelope.SubscribeURL],
          ["Timestamp", envelope.Timestamp],
          ["Token", envelope.Token],
          ["TopicArn", envelope.TopicArn],
          ["Type", envelope.Type],
        ];
  return pairs
    .filter((pair): pair is [string, string] => typeof pair[1] === "string")
    .map(([name, value]) => `${name}\n${value}\n`)
    .join("");
}

export interface SnsVerifierOptions {
  fetchCertificate?: FetchCertificate;
  now?: () => Date;
}

/**
 * Verifies SNS signatures (SignatureVersion 1: SHA1withRSA, 2: SHA256withRSA). Every check that
 * needs no network comes first; certificates are fetched once per URL and kept (successes only).
 */
export function createSnsVerifier(options: SnsVerifierOptions = {}): (envelope: SnsEnvelope) => Promise<SnsVerification> {
  const fetchCertificate = options.fetchCertificate ?? fetchSnsCertificate;
  const now = options.now ?? (() => new Date());
  const keys = new Map<string, Promise<KeyObject>>();

  function publicKey(url: string): Promise<KeyObject> {
    let key = keys.get(url);
    if (!key) {
      key = fetchCertificate(url).then(
        (pem) => new X509Certificate(pem).publicKey,
        (error: unknown) => {
          throw new CertificateFetchError(`${url}: ${error instanceof Error ? error.message : String(error)}`);
        },
      );
      key.catch(() => keys.delete(url));
      if (keys.size >= CACHE_LIMIT) keys.delete(keys.keys().next().value!);
      keys.set(url, key);
    }
    return key;
  }

  return async (envelope) => {
    const algorithm = ALGORITHMS[envelope.SignatureVersion];
    if (!algorithm) return { ok: false, reason: "unsupported_signature_version" };
    const certificateUrl = snsUrl(envelope.SigningCertURL, "certificate");
    if (!certificateUrl) return { ok: false, reason: "signing_cert_url_not_sns" };
    if (envelope.Type !== "Notification" && !snsUrl(envelope.SubscribeURL, "subscribe")) {
      return { ok: false, reason: "subscribe_url_not_sns" };
    }
    const age = now().getTime() - Date.parse(envelope.Timestamp);
    if (age > MAX_AGE_MS) return { ok: false, reason: "stale" };
    if (age < -MAX_CLOCK_SKEW_MS) return { ok: false, reason: "from_the_future" };

    let key: KeyObject;
    try {
      key = await publicKey(certificateUrl.href);
    } catch (error) {
      return { ok: false, reason: error instanceof CertificateFetchError ? "certificate_unavailable" : "bad_certificate" };
    }
    const signature = Buffer.from(envelope.Signature, "base64");
    let valid = false;
    try {
      valid = verify(algorithm, Buffer.from(snsStringToSign(envelope), "utf8"), key, signature);
    } catch {
      valid = false;
    }
    return valid ? { ok: true } : { ok: false, reason: "bad_signature" };
  };
}

/** The certificate could not be downloaded (as opposed to downloaded and found wanting). */
export class CertificateFetchError extends Error {
  override name = "CertificateFetchError";
}

export interface HttpsGetOptions {
  timeoutMs: number;
  maxBytes: number;
}

/** A GET over https that follows no redirect, gives up after `timeoutMs` and reads at most `maxBytes`. */
export function httpsGet(url: string, { timeoutMs, maxBytes }: HttpsGetOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const fail = (message: string) => reject(new Error(`GET ${url}: ${message}`));
    const request = https.get(url, { timeout: timeoutMs }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return fail(`answered ${response.statusCode}, expected 200 (redirects are not followed)`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          request.destroy();
          return fail(`body over ${maxBytes} bytes`);
        }
        chunks.push(chunk);
      });
      response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      response.on("error", (error) => fail(error.message));
    });
    request.on("timeout", () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on("error", (error) => fail(error.message));
  });
}

/** The default certificate download; refuses any URL that is not an SNS certificate URL. */
export async function fetchSnsCertificate(url: string): Promise<string> {
  if (!snsUrl(url, "certificate")) throw new Error(`${url} is not an SNS certificate URL`);
  return httpsGet(url, { timeoutMs: 5_000, maxBytes: 16 * 1024 });
}
