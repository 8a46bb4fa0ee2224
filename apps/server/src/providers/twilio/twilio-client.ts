import { AsyncLocalStorage } from "node:async_hooks";
import twilio from "twilio";

/** What a Twilio REST client needs; `baseUrl` points it at a local simulator in tests. */
export interface TwilioClientConfig {
  accountSid: string;
  authToken: string;
  baseUrl?: string;
  /** Gives up on a request after this long (Twilio's own default is 30 s). */
  timeoutMs?: number;
}

// twilio's RequestClient.RequestOptions<TData>, which its typings do not export by name.
type RequestOptions<TData> = Parameters<twilio.RequestClient["request"]>[0] & { data?: TData };

/** The response headers of the last request made inside `withRetryAfter` (RestException drops them). */
const captured = new AsyncLocalStorage<{ headers: Record<string, unknown> | null }>();

// Twilio's RequestClient with the headers of each answer kept for the call that made it: a
// 429's Retry-After must reach the error mapping, and calls of one batch run concurrently.
class HeaderKeepingRequestClient extends twilio.RequestClient {
  override async request<TData>(opts: RequestOptions<TData>) {
    const response = await super.request<TData>(opts);
    const store = captured.getStore();
    if (store) store.headers = (response.headers ?? null) as Record<string, unknown> | null;
    return response;
  }
}

/**
 * A Twilio client that makes exactly one HTTP request per API call: `autoRetry` (429 retries
 * inside the SDK) stays off, as it is by default, because the engine owns retries, attempt
 * counting and the breaker.
 */
export function createTwilioClient(config: TwilioClientConfig): twilio.Twilio {
  const httpClient = new HeaderKeepingRequestClient({ timeout: config.timeoutMs ?? 15_000, autoRetry: false, keepAlive: true });
  const client = twilio(config.accountSid, config.authToken, { httpClient, autoRetry: false });
  if (config.baseUrl) client.api.baseUrl = config.baseUrl.replace(/\/+$/, "");
  return client;
}

/** Runs `fn` and reports the `Retry-After` header of the answer its request got, if any. */
export async function withRetryAfter<T>(fn: () => Promise<T>): Promise<{ result: T } | { error: unknown; retryAfter: string | null }> {
  const store: { headers: Record<string, unknown> | null } = { headers: null };
  try {
    return { result: await captured.run(store, fn) };
  } catch (error) {
    const value = store.headers?.["retry-after"];
    return { error, retryAfter: typeof value === "string" ? value : null };
  }
}
