import { createHash } from "node:crypto";
import type { Platform } from "@herald/core";
import { cert, getApps, initializeApp, type App, type ServiceAccount } from "firebase-admin/app";
import { mapConcurrently } from "../map-concurrently.ts";
import { notCalled, type OutboundMessage, type Provider, type ProviderCallResult, type SendOptions } from "../provider.ts";
import { limitTokenExchange, redirectTokenExchange, tokenEndpointAgent } from "./token-endpoint-agent.ts";
import { classifyCredentialError, classifyFcmNetworkError, classifyFcmResponse, combineTokenResults, type FcmTokenResult } from "./fcm-errors.ts";

/** Firebase Cloud Messaging through the HTTP v1 API (docs/decisions/0007-fcm-transport.md says why not the SDK's send). */
export interface FcmConfig {
  /** Provider name (token bucket, breaker, the notification row), e.g. `fcm-push`. */
  name: string;
  /** The service-account JSON document (project_id, client_email, private_key). */
  serviceAccount: object;
  /** Overrides https://fcm.googleapis.com (HERALD_FCM_ENDPOINT: a local simulator in tests). */
  endpoint?: string;
  /** Where the OAuth token exchange connects instead of oauth2.googleapis.com (HERALD_FCM_TOKEN_ENDPOINT). */
  tokenEndpoint?: string;
  /** The platform of a token when Herald knows it: the request then carries only that platform's options. */
  platformOf?: (token: string) => Platform | undefined;
}

/** Knobs tests and tuning may turn; the defaults suit production. */
export interface FcmProviderOptions {
  /** Requests in flight at once for one `send` (one request per token). */
  concurrency?: number;
  /** Gives up on a request, the OAuth token exchange included, after this long; the engine retries the message. */
  timeoutMs?: number;
  now?: () => Date;
}

/** FCM's own limit for one multicast, kept for one user's devices. */
export const MAX_TOKENS_PER_MESSAGE = 500;
const DEFAULT_ENDPOINT = "https://fcm.googleapis.com";
const DEFAULT_CONCURRENCY = 32;
const DEFAULT_TIMEOUT_MS = 10_000;
// SENDER_ID_MISMATCH on most of a call's tokens (and on a few at least, so one stale token from
// another project cannot stop the channel) means Herald holds the wrong project's key.
const MISMATCH_OUTAGE_MIN_TOKENS = 3;

/** The firebase-admin app of one service account: initialised once per config, then reused. */
export function firebaseAppFor(name: string, serviceAccount: object, tokenEndpoint?: string, timeoutMs = DEFAULT_TIMEOUT_MS): App {
  const fingerprint = createHash("sha256")
    .update(JSON.stringify([serviceAccount, tokenEndpoint ?? null, timeoutMs]))
    .digest("hex")
    .slice(0, 16);
  const appName = `herald:${name}:${fingerprint}`;
  const existing = getApps().find((app) => app.name === appName);
  if (existing) return existing;
  // cert() copies snake_case fields to camelCase on the object it is given: give it a copy.
  const credential = cert({ ...serviceAccount } as ServiceAccount);
  if (tokenEndpoint) redirectTokenExchange(credential, tokenEndpointAgent(tokenEndpoint));
  limitTokenExchange(credential, timeoutMs);
  return initializeApp({ credential }, appName);
}

function projectIdOf(serviceAccount: object): string {
  const sa = serviceAccount as { project_id?: unknown; projectId?: unknown };
  const id = sa.project_id ?? sa.projectId;
  if (typeof id !== "string" || !/^[a-z0-9-]{1,63}$/.test(id)) throw new Error("the FCM service account has no valid project_id");
  return id;
}

/** The v1 request body for one token: exported so tests read what was meant to be sent. */
export function fcmRequestBody(message: OutboundMessage, token: string, platform: Platform | undefined): object {
  const critical = message.lane === "critical";
  const notification = {
    ...(message.title === undefined ? {} : { title: message.title }),
    body: message.body,
    ...(message.imageUrl === undefined ? {} : { image: message.imageUrl }),
  };
  // The notification id doubles as the display tag / collapse id, so a duplicate (a retry after a
  // timeout FCM had in fact accepted) replaces the first on the device instead of showing twice.
  const tag = message.data.notification_id ?? message.notificationId;
  const android = { priority: critical ? "high" : "normal", notification: { tag } };
  const apns = { headers: { "apns-priority": critical ? "10" : "5", "apns-collapse-id": tag } };
  const webpush = {
    headers: { Urgency: critical ? "high" : "normal" },
    notification: { tag },
    // Browsers open this on click; apps read data.deep_link themselves.
    ...(message.deepLink?.startsWith("https://") ? { fcm_options: { link: message.deepLink } } : {}),
  };
  return {
    message: {
      token,
      notification,
      data: { ...message.data, ...(message.deepLink === undefined ? {} : { deep_link: message.deepLink }), notification_id: tag },
      ...(platform === undefined || platform === "android" ? { android } : {}),
      ...(platform === undefined || platform === "ios" ? { apns } : {}),
      ...(platform === undefined || platform === "web" ? { webpush } : {}),
    },
  };
}

/** A token the stopped batch never sent to: a message with only such tokens was not called at all. */
const TOKEN_NOT_CALLED: FcmTokenResult = { kind: "transient", reason: "not_called", code: "NOT_CALLED" };

/**
 * Push through FCM's HTTP v1 API: one request per token, so one `send` is exactly one attempt
 * per token (firebase-admin's own send retries 503s and resets up to four times, unseen).
 * HTTP/1.1 through fetch, with firebase-admin's credential for the OAuth token.
 */
export function createFcmProvider(config: FcmConfig, options: FcmProviderOptions = {}): Provider {
  const projectId = projectIdOf(config.serviceAccount);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const app = firebaseAppFor(config.name, config.serviceAccount, config.tokenEndpoint, timeoutMs);
  const credential = app.options.credential!;
  const url = `${(config.endpoint ?? DEFAULT_ENDPOINT).replace(/\/+$/, "")}/v1/projects/${projectId}/messages:send`;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const now = options.now ?? (() => new Date());

  async function sendToken(accessToken: string, message: OutboundMessage, token: string): Promise<FcmTokenResult> {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify(fcmRequestBody(message, token, config.platformOf?.(token))),
        signal: AbortSignal.timeout(timeoutMs),
      });
      return classifyFcmResponse({ status: response.status, body: await response.text(), retryAfter: response.headers.get("retry-after") }, now());
    } catch (error) {
      return classifyFcmNetworkError(error);
    }
  }

  async function send(messages: readonly OutboundMessage[], { onResult, signal, permit }: SendOptions = {}): Promise<ProviderCallResult[]> {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    const work = messages.flatMap((message, m) => (message.tokens ?? []).slice(0, MAX_TOKENS_PER_MESSAGE).map((token) => ({ m, message, token })));
    let accessToken = "";
    if (work.length > 0) {
      try {
        // Cached by the credential until shortly before it expires: one token request an hour.
        accessToken = (await credential.getAccessToken()).access_token;
      } catch (error) {
        const outcome = classifyCredentialError(error);
        return messages.map(() => ({ outcome, latencyMs: latencyMs() }));
      }
    }
    const tokensOf = messages.map(() => [] as number[]);
    work.forEach(({ m }, i) => tokensOf[m]!.push(i));
    const tokenResults = new Array<FcmTokenResult>(work.length);
    const open = tokensOf.map((indexes) => indexes.length);
    const callResult = (m: number, mismatchIsOutage: boolean): ProviderCallResult => {
      const mine = tokensOf[m]!;
      if (mine.length > 0 && mine.every((i) => tokenResults[i] === TOKEN_NOT_CALLED)) return notCalled();
      const { outcome, invalidTokens } = combineTokenResults(mine.map((i) => work[i]!.token), mine.map((i) => tokenResults[i]!), mismatchIsOutage);
      return { outcome, latencyMs: latencyMs(), ...(invalidTokens.length > 0 ? { invalidTokens } : {}) };
    };
    const isMismatch = (r: FcmTokenResult) => r.kind === "invalid_token" && r.reason === "sender_id_mismatch";
    const settle = (i: number, result: FcmTokenResult) => {
      tokenResults[i] = result;
      const { m } = work[i]!;
      // A message is reported as soon as its last token answers, unless a token said
      // SENDER_ID_MISMATCH: whether that means the wrong project's key is decided over the call.
      if (--open[m]! === 0 && onResult && !tokensOf[m]!.some((t) => isMismatch(tokenResults[t]!))) onResult(m, callResult(m, false));
    };
    // A message is permitted once, by its first token to start; its other tokens abide by that.
    const permits = new Map<number, boolean | Promise<boolean>>();
    const permitted = (i: number) => {
      const { m, message } = work[i]!;
      if (!permits.has(m)) permits.set(m, permit!(message));
      return permits.get(m)!;
    };
    await mapConcurrently(
      [...work.keys()],
      concurrency,
      async (i) => settle(i, await sendToken(accessToken, work[i]!.message, work[i]!.token)),
      { signal, permit: permit && permitted, notStarted: (i) => settle(i, TOKEN_NOT_CALLED) },
    );

    const mismatches = tokenResults.filter(isMismatch).length;
    const mismatchIsOutage = mismatches >= MISMATCH_OUTAGE_MIN_TOKENS && mismatches * 2 > tokenResults.length;
    return messages.map((_message, m) => callResult(m, mismatchIsOutage));
  }

  return { name: config.name, channel: "push", send };
}

